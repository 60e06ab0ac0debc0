import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as userLanguage from '../../src/server/db/migrations/2026-12-07-01-user-language.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds, refusal } from '../support/db.ts';

/** A user's language (issue 43, decision 35, migration 2026-12-07-01). */
describe.each(databaseKinds())('the users’ language on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<Database>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const languages = async () =>
    (await db.selectFrom('users').select('language').distinct().execute()).map((u) => u.language);

  it('is German for every user there was, takes the six languages and refuses another', async () => {
    expect(await languages()).toEqual(['de']);
    const setTo = (language: string) => (trx: Kysely<Database>) =>
      trx
        .updateTable('users')
        .set({ language: language as never })
        .execute();
    for (const language of ['de', 'en', 'pl', 'ro', 'uk', 'tr'])
      expect(await refusal(db, setTo(language))).toBe('');
    expect(await refusal(db, setTo('fr'))).toMatch(/users_language_check/);
    expect(await refusal(db, setTo('DE'))).toMatch(/users_language_check/);
  });

  it('goes down and up again, every user German after', async () => {
    await userLanguage.down(db as never);
    await userLanguage.up(db as never);
    expect(await languages()).toEqual(['de']);
  });
});
