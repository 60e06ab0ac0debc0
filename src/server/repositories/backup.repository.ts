import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The last backup that completed, as `npm run backup -- create` notes it once its file is written (in the
 * settings table, so every server instance on one PostgreSQL sees it). The Leitstand shows it and warns when
 * it is too old (decision 29).
 */
export interface BackupRecord {
  /** When it began and when its file was complete (ISO). */
  startedAt: string;
  finishedAt: string;
  /** The file's size. */
  bytes: number;
  database: 'pglite' | 'postgres';
  /** Taken while a server served (the embedded database's online backup; pg_dump always is). */
  online: boolean;
}

const KEY = 'backup.last';

export async function recordBackup(db: Kysely<Database>, record: BackupRecord): Promise<void> {
  const value = JSON.stringify(record);
  await db
    .insertInto('settings')
    .values({ key: KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function lastBackup(db: Kysely<Database>): Promise<BackupRecord | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as BackupRecord;
  } catch {
    return null; // written by hand: as if none
  }
}
