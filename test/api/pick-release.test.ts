import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickClaim, pickRelease, kommissionierungTexts as T } from '../../src/contract/kommissionierung.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/** Issue 39 row 7: 'Abbrechen' on another worker's note answered success but released nothing. */
describe.each(databaseKinds())("'Abbrechen' of a note being picked on %s", (kind) => {
  let t: TestApp;
  let anna: string;
  let lead: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
  });
  afterAll(() => t.close());

  const claim = (belegnr: string, as: string) => caller(t.app, as)(pickClaim, { body: { belegnr } });
  const release = (id: number, as: string) => caller(t.app, as)(pickRelease, { body: { id } });
  const holder = async (id: number) =>
    (
      await t.database.db
        .selectFrom('pick_claims as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select('u.username')
        .where('c.delivery_note_id', '=', id)
        .executeTakeFirst()
    )?.username ?? null;

  it("refuses another worker's note with their name and releases nothing; the picker's own goes, then nobody's is no refusal", async () => {
    const belegnr = demo.deliveryNotes.pickable;
    const claimed = await claim(belegnr, anna);
    expect(claimed.statusCode).toBe(200);
    const { id } = claimed.json<{ data: { id: number } }>().data;

    const other = await release(id, lead);
    expect([other.statusCode, other.json()]).toMatchObject([
      409,
      { success: false, message: T.releaseNotYours(belegnr, demo.passwordUser.name) },
    ]);
    expect(await holder(id)).toBe(demo.passwordUser.username);

    expect((await release(id, anna)).statusCode).toBe(200);
    expect(await holder(id)).toBeNull();
    expect((await release(id, lead)).json()).toEqual({ success: true });
  });
});
