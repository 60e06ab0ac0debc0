import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as glossaryNames from '../../src/server/db/migrations/2026-11-28-03-glossary-names.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

describe.each(databaseKinds())('the glossary names migration (decision 32) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('renames who picked a note and when to picked_by / picked_at, keeping both values, and back', async () => {
    const db = t.database.db;
    const note = await db.selectFrom('delivery_notes').select('id').orderBy('id').executeTakeFirstOrThrow();
    const user = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    const at = new Date('2026-11-20T10:00:00Z');
    await db
      .updateTable('delivery_notes')
      .set({ picked_at: at, picked_by: user.id })
      .where('id', '=', note.id)
      .execute();

    await glossaryNames.down(db as never);
    const before = await sql<{ kommissioniert_at: Date; kommissioniert_von: number }>`
      select kommissioniert_at, kommissioniert_von from delivery_notes where id = ${note.id}`.execute(db);
    expect(before.rows).toEqual([{ kommissioniert_at: at, kommissioniert_von: user.id }]);

    await glossaryNames.up(db as never);
    expect(
      await db
        .selectFrom('delivery_notes')
        .select(['picked_at', 'picked_by'])
        .where('id', '=', note.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ picked_at: at, picked_by: user.id });
    // The partial index of the notes still to pick names the new column.
    const { rows } = await sql<{ definition: string }>`
      select pg_get_indexdef('delivery_notes_to_pick_idx'::regclass) as definition`.execute(db);
    expect(rows[0]?.definition).toMatch(/picked_at IS NULL/);
  });
});
