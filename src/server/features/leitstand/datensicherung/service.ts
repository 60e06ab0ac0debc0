import type { Kysely } from 'kysely';
import { BACKUP_MAX_AGE_MS, type LastBackupRow } from '../../../../contract/leitstand/datensicherung.ts';
import type { Database } from '../../../db/schema.ts';
import { lastBackup } from '../../../repositories/backup.repository.ts';

/** Leitstand › Datensicherung: the last backup `npm run backup` noted, and whether it is too old. */
export async function datensicherung(
  db: Kysely<Database>,
  now: number,
): Promise<{ letzte: LastBackupRow | null; veraltet: boolean }> {
  const letzte = await lastBackup(db);
  const finished = letzte ? Date.parse(letzte.finishedAt) : Number.NaN;
  return { letzte, veraltet: !(now - finished <= BACKUP_MAX_AGE_MS) };
}
