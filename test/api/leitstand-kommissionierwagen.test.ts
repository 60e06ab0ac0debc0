import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CartLine,
  type CartStop,
  cartPutAway,
  cartRelease,
  cartShortage,
  cartStart,
  type Fahrt,
  kommissionierwagenTexts as W,
} from '../../src/contract/kommissionierwagen.ts';
import {
  type KlaerfallRow,
  klaerfaelleList,
  klaerfallErledigt,
  klaerfallZurueck,
} from '../../src/contract/leitstand/klaerfaelle.ts';
import {
  fachLeeren,
  fahrtBeenden,
  kommissionierwagen,
  kommissionierungLeitstandTexts as T,
  type WagenRow,
} from '../../src/contract/leitstand/kommissionierung.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * The shift lead's ways out on Leitstand › Kommissionierwagen (issue 41, decision 33): a Klärfall closed as
 * 'Erledigt' frees its note's compartment, 'Fahrt beenden' ends a trip nobody finishes, 'Fach leeren' frees a
 * compartment emptied by hand. Trips are set up through the handheld's cart calls on the demo's cart KW01
 * (six compartments, filled with the oldest pickable notes). The tests run in order on one database.
 */
describe.each(databaseKinds())('Kommissionierwagen in the Leitstand on %s', (kind) => {
  let t: TestApp;
  let anna: string;
  let lead: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    anna = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const ok = <T = Fahrt>(res: LightMyRequestResponse): T => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T }>().data;
  };
  const refused = (res: LightMyRequestResponse) => [res.statusCode, res.json<{ message: string }>().message];
  const start = () => caller(t.app, anna)(cartStart, { body: { code: 'KW01' } });
  const abbrechen = (trip: Fahrt) => caller(t.app, anna)(cartRelease, { body: { fahrtId: trip.id } });
  /** A line of the trip still open at a location, with at least `min` pieces to pick. */
  const openLine = (f: Fahrt, min = 1, except: string[] = []): { line: CartLine; stop: CartStop } => {
    for (const stop of f.route)
      for (const line of stop.positionen)
        if (line.offen >= min && !except.includes(line.belegnr)) return { line, stop };
    throw new Error(`no open line of at least ${min} on the trip`);
  };
  const put = (f: Fahrt, at: { line: CartLine; stop: CartStop }, menge = at.line.offen) =>
    caller(t.app, anna)(cartPutAway, {
      body: {
        fahrtId: f.id,
        positionId: at.line.positionId,
        lagerplatzId: at.stop.lagerplatz.id,
        fach: at.line.fach.code,
        menge,
      },
    });
  /** A Klärfall of the note: one piece put into its compartment, the rest of its line reported short. */
  const shortNote = async (f: Fahrt): Promise<string> => {
    const at = openLine(f, 2);
    const afterPut = ok(await put(f, at, 1));
    const res = await caller(t.app, anna)(cartShortage, {
      body: {
        fahrtId: f.id,
        positionId: at.line.positionId,
        menge: at.line.offen - 1,
        lagerplatzId: at.stop.lagerplatz.id,
      },
    });
    ok(res);
    expect(afterPut.id).toBe(f.id);
    return at.line.belegnr;
  };
  const page = async () => ok<{ wagen: WagenRow[] }>(await caller(t.app, lead)(kommissionierwagen)).wagen;
  const kw01 = async () => {
    const cart = (await page()).find((c) => c.code === 'KW01');
    if (!cart) throw new Error('no KW01');
    return cart;
  };
  /** What the lead sees in KW01's compartments: each one's note, or null. */
  const contents = async () => (await kw01()).faecher.map((f) => f.lieferschein?.belegnr ?? null);
  const compartmentOf = async (belegnr: string) => {
    const f = (await kw01()).faecher.find((c) => c.lieferschein?.belegnr === belegnr);
    if (!f?.lieferschein) throw new Error(`${belegnr} lies in no compartment of KW01`);
    return { id: f.id, code: f.code, noteId: f.lieferschein.id, fahrtOffen: f.lieferschein.fahrtOffen };
  };
  const openKlaerfall = async (belegnr: string) => {
    const list = ok<{ offen: KlaerfallRow[] }>(await caller(t.app, lead)(klaerfaelleList)).offen;
    const k = list.find((row) => row.belegnr === belegnr);
    if (!k) throw new Error(`no open Klärfall of ${belegnr}`);
    return k.id;
  };
  const freedReason = async (belegnr: string) =>
    (
      await db()
        .selectFrom('pick_trip_notes as tn')
        .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
        .select('tn.freed_reason')
        .where('n.belegnr', '=', belegnr)
        .orderBy('tn.id', 'desc')
        .executeTakeFirstOrThrow()
    ).freed_reason;
  const auditOf = async (action: string) =>
    db()
      .selectFrom('audit_log')
      .select(['subject', 'detail'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  const endTrip = (id: number, key?: string) =>
    caller(t.app, lead)(fahrtBeenden, { params: { id }, body: {}, key });
  const empty = (c: { id: number; noteId: number }) =>
    caller(t.app, lead)(fachLeeren, { params: { id: c.id }, body: { lieferscheinId: c.noteId } });

  it("frees the compartment of a note whose Klärfall is closed 'Erledigt', and the next trip fills it", async () => {
    const first = ok(await start());
    const shortOne = await shortNote(first);
    ok<unknown>(await abbrechen(first));
    // Goods of it lie in its compartment: 'Abbrechen' leaves it there, and the next trip goes round it.
    const held = await compartmentOf(shortOne);
    const second = ok(await start());
    expect(second.faecher.map((f) => f.auftrag?.belegnr)).not.toContain(shortOne);
    expect((await compartmentOf(shortOne)).code).toBe(held.code);
    ok<unknown>(await abbrechen(second));

    const closed = await caller(t.app, lead)(klaerfallErledigt, {
      params: { klaerfallId: await openKlaerfall(shortOne) },
      body: { kommentar: 'Ware ins Retourenregal, Kunde informiert' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await freedReason(shortOne)).toBe('klaerfall');
    expect(await contents()).toEqual([null, null, null, null, null, null]);
    const third = ok(await start());
    const filled = third.faecher.find((f) => f.code === held.code)?.auftrag?.belegnr;
    expect(filled).toBeDefined();
    expect(filled).not.toBe(shortOne);
    ok<unknown>(await abbrechen(third));
  });

  it("keeps the note in its compartment when its Klärfall goes 'Zurück ins Packen'", async () => {
    const trip = ok(await start());
    const shortOne = await shortNote(trip);
    const held = await compartmentOf(shortOne);
    const back = await caller(t.app, lead)(klaerfallZurueck, {
      params: { klaerfallId: await openKlaerfall(shortOne) },
      body: {},
    });
    expect(back.statusCode, back.body).toBe(200);
    ok<unknown>(await abbrechen(trip));
    expect((await compartmentOf(shortOne)).code).toBe(held.code);
    expect(await freedReason(shortOne)).toBeNull();
  });

  it("refuses a worker's login both actions (403), and changes nothing", async () => {
    const trip = ok(await start());
    const cart = await kw01();
    const [fach] = cart.faecher;
    if (!fach?.lieferschein || !cart.fahrt) throw new Error('KW01 holds no trip');
    const asWorker = caller(t.app, anna);
    expect((await asWorker(fahrtBeenden, { params: { id: cart.fahrt.id }, body: {} })).statusCode).toBe(403);
    expect(
      (
        await asWorker(fachLeeren, {
          params: { id: fach.id },
          body: { lieferscheinId: fach.lieferschein.id },
        })
      ).statusCode,
    ).toBe(403);
    expect((await kw01()).fahrt?.id).toBe(trip.id);
    ok<unknown>(await abbrechen(trip));
  });

  it('shows a trip whose login sat idle past its expiry as nobody’s any more, so the lead knows to end it', async () => {
    const trip = ok(await start());
    expect((await kw01()).fahrt).toMatchObject({ id: trip.id, angemeldet: true });
    const { session_id } = await db()
      .selectFrom('pick_trips')
      .select('session_id')
      .where('id', '=', trip.id)
      .executeTakeFirstOrThrow();
    const lastSeen = (at: ReturnType<typeof sql<Date>>) =>
      db().updateTable('sessions').set({ last_seen_at: at }).where('id', '=', session_id).execute();
    // Longer ago than any SESSION_IDLE_MINUTES allows (30 days at most).
    await lastSeen(sql<Date>`now() - interval '31 days'`);
    expect((await kw01()).fahrt).toMatchObject({ id: trip.id, angemeldet: false });
    await lastSeen(sql<Date>`now()`);
    expect((await kw01()).fahrt).toMatchObject({ id: trip.id, angemeldet: true });
    ok<unknown>(await abbrechen(trip));
  });

  /** The note put into its compartment on the trip the lead ended, and that trip. */
  let picked: string;
  let pickedOn: number;

  it("'Fahrt beenden' ends the picker's trip as 'Abbrechen' does, once per key, and the handheld hears it", async () => {
    // What earlier trips left in their compartments stays there.
    const left = (await contents()).filter((b) => b !== null);
    const trip = ok(await start());
    const at = openLine(trip);
    picked = at.line.belegnr;
    pickedOn = trip.id;
    const afterPut = ok(await put(trip, at));
    const untouched = afterPut.faecher
      .map((f) => f.auftrag?.belegnr)
      .filter((b): b is string => b !== undefined && b !== picked);
    expect(untouched.length).toBeGreaterThan(0);
    const before = await kw01();
    expect(before.fahrt).toMatchObject({ id: trip.id, kommissionierer: demo.passwordUser.name });

    const key = randomUUID();
    const ended = await endTrip(trip.id, key);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json<{ message: string }>().message).toBe(T.tripEnded('KW01'));
    const repeated = await endTrip(trip.id, key);
    expect(repeated.statusCode).toBe(200);

    const after = await kw01();
    expect(after.fahrt).toBeNull();
    // The picked note stays in its compartment with its goods; the others left the cart.
    expect(
      after.faecher
        .map((f) => f.lieferschein?.belegnr ?? null)
        .filter((b) => b !== null)
        .sort(),
    ).toEqual([...left, picked].sort());
    for (const belegnr of untouched) expect(await freedReason(belegnr)).toBe('abgebrochen');
    const claims = await db()
      .selectFrom('pick_claims as c')
      .innerJoin('delivery_notes as n', 'n.id', 'c.delivery_note_id')
      .select('n.belegnr')
      .where('n.belegnr', 'in', [picked, ...untouched])
      .execute();
    expect(claims).toEqual([]);

    // The picker's handheld: its next put is refused, the trip is over.
    const next = openLine(afterPut, 1, [picked]);
    expect(refused(await put(afterPut, next))).toEqual([409, W.tripOver('KW01')]);
    expect(refused(await endTrip(trip.id))).toEqual([409, T.tripAlreadyEnded('KW01')]);
    expect(await auditOf('pickTrip.end')).toEqual([
      {
        subject: 'KW01',
        detail: {
          fahrt: trip.id,
          kommissionierer: demo.passwordUser.name,
          verlassen: [...untouched].sort().join(', '),
          bleiben: picked,
        },
      },
    ]);
  });

  it("'Fach leeren' is refused while the note's trip is open, frees the compartment after, and a new trip fills it", async () => {
    const trip = ok(await start());
    const at = openLine(trip);
    ok(await put(trip, at));
    const held = await compartmentOf(at.line.belegnr);
    expect(held.fahrtOffen).toBe(true);
    expect(refused(await empty(held))).toEqual([409, T.tripStillOpen(held.code, 'KW01')]);
    expect(await freedReason(at.line.belegnr)).toBeNull();

    ok<unknown>(await endTrip(trip.id));
    expect(await compartmentOf(at.line.belegnr)).toEqual({ ...held, fahrtOffen: false });
    const emptied = await empty(held);
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(emptied.json<{ message: string }>().message).toBe(T.compartmentEmptied(held.code));
    expect(await freedReason(at.line.belegnr)).toBe('geleert');
    expect(await contents()).not.toContain(at.line.belegnr);
    expect(refused(await empty(held))).toEqual([409, T.compartmentAlreadyFree(held.code, at.line.belegnr)]);
    expect(await auditOf('compartment.empty')).toEqual([
      { subject: held.code, detail: { fach: held.code, lieferschein: at.line.belegnr, fahrt: trip.id } },
    ]);

    // The compartment takes a note again (the emptied note too, if lines of it are still to pick).
    const next = ok(await start());
    expect(next.faecher.find((f) => f.code === held.code)?.auftrag?.belegnr).toBeDefined();
    ok<unknown>(await abbrechen(next));
  });

  it('empties a compartment a finished trip left while another trip of the cart is open: that trip never held it', async () => {
    const held = await compartmentOf(picked);
    const trip = ok(await start());
    expect(trip.faecher.map((f) => f.auftrag?.belegnr)).not.toContain(picked);
    const emptied = await empty(held);
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(await freedReason(picked)).toBe('geleert');
    expect((await kw01()).fahrt?.id).toBe(trip.id);
    ok<unknown>(await abbrechen(trip));
    expect((await auditOf('compartment.empty')).at(-1)?.detail).toEqual({
      fach: held.code,
      lieferschein: picked,
      fahrt: pickedOn,
    });
  });
});
