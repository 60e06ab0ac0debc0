import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { kommissionierungTexts as K, pickClaim } from '../../src/contract/kommissionierung.ts';
import { cartPutAway, cartRelease, cartStart, type Fahrt } from '../../src/contract/kommissionierwagen.ts';
import { moveArticle } from '../../src/contract/umbuchung.ts';
import { bookReceipt } from '../../src/contract/wareneingang.ts';
import { addPickCart, demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import {
  articleId,
  insertDeliveryNote,
  locationId,
  stockInvariantViolations,
  stockOf,
} from '../support/stock.ts';

/**
 * The cart flow under races (issue 41, decision 33), on both databases: two carts filled from one wave at the
 * same moment, a cart's fill beside a single note's claim, and puts racing rebookings and receipts on one
 * location. PostgreSQL runs the calls in parallel; PGlite one transaction at a time, in whichever order.
 */
describe.each(databaseKinds())('Kommissionierwagen races on %s', (kind) => {
  let t: TestApp;
  let anna: string;
  let lead: string;
  let leadId: number;
  let notes = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    leadId = await userIdOf(t.database.db, demo.leadUser.username);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const call = (endpoint: Endpoint, body: unknown, as: string) => caller(t.app, as)(endpoint, { body });
  const fahrtOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Fahrt }>().data;
  };
  const held = (f: Fahrt) => f.faecher.flatMap((c) => (c.auftrag ? [c.auftrag.belegnr] : []));
  const release = async (f: Fahrt, as: string) =>
    expect((await call(cartRelease, { fahrtId: f.id }, as)).statusCode).toBe(200);

  const newCart = (code: string, compartments: number) => addPickCart(db(), code, compartments);
  /** A released wave of `count` new notes with these lines, `perCart` to a cart. */
  async function wave(count: number, perCart: number, lines: [string, number][]): Promise<string[]> {
    const { id } = await db()
      .insertInto('pick_waves')
      .values({ profile_name: 'Test', released_by: leadId, notes_per_cart: perCart })
      .returning('id')
      .executeTakeFirstOrThrow();
    const belegnrs: string[] = [];
    for (let i = 0; i < count; i++) {
      const belegnr = await insertDeliveryNote(db(), `LSR${String(++notes).padStart(4, '0')}`, lines);
      const note = await db()
        .selectFrom('delivery_notes')
        .select('id')
        .where('belegnr', '=', belegnr)
        .executeTakeFirstOrThrow();
      await db().insertInto('pick_wave_notes').values({ delivery_note_id: note.id, wave_id: id }).execute();
      belegnrs.push(belegnr);
    }
    return belegnrs;
  }
  /** These notes leave the waves' pool (as if packed), so the next round's wave is the oldest with notes. */
  const done = async (belegnrs: string[]) =>
    db().updateTable('delivery_notes').set({ status: 'gepackt' }).where('belegnr', 'in', belegnrs).execute();
  /** Each note of these on how many carts, and claimed by whom. */
  const placement = async (belegnrs: string[]) =>
    (
      await sql<{ belegnr: string; carts: number; claims: number }>`
        select n.belegnr,
          (select count(*) from pick_trip_notes tn where tn.delivery_note_id = n.id and tn.freed_at is null)::int as carts,
          (select count(*) from pick_claims c where c.delivery_note_id = n.id)::int as claims
        from delivery_notes n where n.belegnr = any(${belegnrs}::text[]) order by n.belegnr`.execute(db())
    ).rows;

  it('two pickers filling two carts from one wave at the same moment get disjoint notes', async () => {
    for (const [round, count] of [
      [1, 9],
      [2, 16],
      [3, 4],
    ] as const) {
      const belegnrs = await wave(count, 6, [['100008', 1]]);
      await newCart(`RA${round}`, 6);
      await newCart(`RB${round}`, 6);
      const [a, b] = await Promise.all([
        call(cartStart, { code: `RA${round}` }, anna),
        call(cartStart, { code: `RB${round}` }, lead),
      ]);
      const answers = [a, b].map(fahrtOf);
      // The wave's notes on the two carts, none twice (four fill one cart: the other then takes the oldest
      // notes outside every wave).
      const fromWave = answers.flatMap(held).filter((n) => belegnrs.includes(n));
      expect(new Set(fromWave).size).toBe(fromWave.length);
      expect(fromWave.length).toBe(Math.min(count, 12));
      expect((await placement(belegnrs)).filter((p) => p.carts === 1 && p.claims === 1)).toHaveLength(
        fromWave.length,
      );
      for (const f of answers)
        expect(held(f).filter((n) => belegnrs.includes(n)).length).toBeLessThanOrEqual(6);
      await release(answers[0] as Fahrt, anna);
      await release(answers[1] as Fahrt, lead);
      await done(belegnrs);
    }
    const trips = await db().selectFrom('pick_trips').select('id').where('finished_at', 'is', null).execute();
    expect(trips).toEqual([]);
  });

  it("a cart's fill and a single note's claim at the same moment: the note is on the cart or claimed, never both", async () => {
    await newCart('RC1', 3);
    for (let round = 0; round < 4; round++) {
      const belegnrs = await wave(3, 3, [['100008', 1]]);
      const target = belegnrs[round % 3] as string;
      const [fill, claim] = await Promise.all([
        call(cartStart, { code: 'RC1' }, anna),
        call(pickClaim, { belegnr: target }, lead),
      ]);
      const [placed] = await placement([target]);
      if (claim.statusCode === 200) {
        expect(placed).toMatchObject({ carts: 0, claims: 1 });
      } else {
        expect(claim.json().message).toBe(K.claimedBy(demo.passwordUser.name));
        expect(placed).toMatchObject({ carts: 1, claims: 1 });
      }
      const f = fahrtOf(fill);
      expect(held(f).includes(target)).toBe(claim.statusCode !== 200);
      await release(f, anna);
      await db().deleteFrom('pick_claims').execute();
      await done(belegnrs);
    }
  });

  it('never takes a location below zero with cart puts, rebookings and receipts racing on it; the journal equals stock', async () => {
    const article = await articleId(db(), '100006');
    const from = await locationId(db(), 'B-01-02-01');
    const to = await locationId(db(), 'B-02-01-01');
    const before = await stockOf(db(), from, article);
    const belegnrs = await wave(6, 6, [['100006', 6]]);
    await newCart('RD1', 6);
    const f = fahrtOf(await call(cartStart, { code: 'RD1' }, anna));
    expect(held(f).sort()).toEqual(belegnrs);
    const receipt = await db()
      .insertInto('receipts')
      .values({ nummer: 'WE-RACE-1', lieferant: 'Test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const line = await db()
      .insertInto('receipt_lines')
      .values({ receipt_id: receipt.id, article_id: article, expected: 100 })
      .returning('id')
      .executeTakeFirstOrThrow();

    const stop = f.route.find((s) => s.lagerplatz.id === from);
    if (!stop) throw new Error('no stop at B-01-02-01');
    const puts = stop.positionen.map((p) =>
      call(
        cartPutAway,
        { fahrtId: f.id, positionId: p.positionId, lagerplatzId: from, fach: p.fach.code, menge: 6 },
        anna,
      ),
    );
    const moves = Array.from({ length: 5 }, () => call(moveArticle, { from, article, to, amount: 3 }, lead));
    const receipts = Array.from({ length: 4 }, () =>
      call(
        bookReceipt,
        {
          wareneingang: 'WE-RACE-1',
          position: line.id,
          lagerplatz: 'B-01-02-01',
          amount: 1,
          charge: null,
          mhd: null,
        },
        lead,
      ),
    );
    const [putAnswers, moveAnswers, receiptAnswers] = await Promise.all([
      Promise.all(puts),
      Promise.all(moves),
      Promise.all(receipts),
    ]);
    const all = [...putAnswers, ...moveAnswers, ...receiptAnswers];
    for (const res of all) expect([200, 400], res.body).toContain(res.statusCode);
    const ok = (answers: LightMyRequestResponse[]) => answers.filter((r) => r.statusCode === 200).length;
    expect(receiptAnswers.every((r) => r.statusCode === 200)).toBe(true);
    const expected = before + ok(receiptAnswers) - 6 * ok(putAnswers) - 3 * ok(moveAnswers);
    expect(expected).toBeGreaterThanOrEqual(0);
    expect(await stockOf(db(), from, article)).toBe(expected);
    const negative = await db().selectFrom('stock').select('id').where('amount', '<', 0).execute();
    expect(negative).toEqual([]);
    expect(await stockInvariantViolations(db())).toBe(0);
    const picked = await sql<{ n: number }>`
      select coalesce(sum(l.kommissioniert), 0)::int as n from delivery_note_lines l
        join delivery_notes n on n.id = l.delivery_note_id where n.belegnr = any(${belegnrs}::text[])`.execute(
      db(),
    );
    expect(picked.rows[0]?.n).toBe(6 * ok(putAnswers));
    const journalled = await db()
      .selectFrom('movements')
      .select(sql<number>`coalesce(sum(amount), 0)::int`.as('n'))
      .where('pick_trip_id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(journalled.n).toBe(6 * ok(putAnswers));
    await release(f, anna);
  });
});
