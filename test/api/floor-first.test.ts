import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { lagerplatzPdf, lagerplatzZpl } from '../../src/contract/etiketten.ts';
import { exportMovements } from '../../src/contract/export.ts';
import { journalCsv } from '../../src/contract/leitstand/bestand.ts';
import { kommissionierProfilAnlegen, welleFreigeben } from '../../src/contract/leitstand/kommissionierung.ts';
import { texts } from '../../src/contract/texts.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { scanWhile, writeCall } from '../support/floor.ts';

/**
 * The floor comes first (DESIGN §10, issue 37): while a shift lead downloads the whole journal, 3,000
 * location labels or releases a wave of 20,000 notes, or an integration reads a 10,000-row export page, a
 * handheld's scan made in the middle is answered within the overload limit — the server's thread and the
 * embedded database's session are never held for long by the back office. Against the real server listening
 * on a port (the handheld's calls go through sockets, as on the floor), with the production's overload limit.
 *
 * Before the back office went in steps, on PGlite the journal's CSV of 100,000 rows held the thread for
 * seconds (a loop of awaited queries never gives the event loop a turn) and the label run for the time of
 * its drawing, and a wave's release for its one statement: the scans waited for its end.
 */
const OVERLOAD_MAX_WAIT_MS = 500;
/** Journal rows the CSV and the export read: pairs of moves there and back, so journal and stock still agree. */
const JOURNAL_PAIRS = 25_000;
const LOCATIONS = 3_000;
/** Pickable delivery notes a wave takes: as one statement, 12,561 held PGlite 630 ms on the large seed. */
const WAVE_NOTES = 20_000;

describe.each(databaseKinds())('the floor under back-office work on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let worker: string;
  let lead: string;
  let integration: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { overloadMaxWaitMs: OVERLOAD_MAX_WAIT_MS });
    const db = t.database.db;
    await sql`
      insert into movements (kind, article_id, from_location_id, to_location_id, amount, at)
      select 'umlagerung', a.id, case when n % 2 = 0 then f.id else t.id end,
             case when n % 2 = 0 then t.id else f.id end, 1, now() - (n || ' seconds')::interval
      from generate_series(1, ${2 * JOURNAL_PAIRS}::integer) n,
           (select id from articles where nummer = ${demo.article.nummer}) a,
           (select id from locations where code = 'A-01-01-01') f,
           (select id from locations where code = 'A-01-01-02') t`.execute(db);
    await sql`
      insert into locations (code, name, lagertyp)
      select 'Y-' || lpad((n / 100)::text, 2, '0') || '-' || lpad((n % 100)::text, 2, '0'), '', 'Fach'
      from generate_series(0, ${LOCATIONS - 1}::integer) n`.execute(db);
    await sql`analyze movements`.execute(db);
    await sql`analyze locations`.execute(db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
    integration = await createIntegrationToken(db, 'floor-first');
  }, 180_000);
  afterAll(() => t.close());

  /**
   * A contract call over a real socket (the contract caller injects, which would not meet the server's
   * thread and gate as a handheld's request does), `query` as URLSearchParams takes it: a label run repeats
   * `codes`.
   */
  const fetchCall = (
    e: Endpoint,
    token: string,
    query: ConstructorParameters<typeof URLSearchParams>[0] = {},
  ) => {
    const search = new URLSearchParams(query).toString();
    return fetch(`${base}${e.path}${search ? `?${search}` : ''}`, {
      method: e.method,
      headers: { authorization: `Bearer ${token}` },
    });
  };

  /** Reads a download to its end: status, bytes and the Retry-After of a refusal. */
  async function download(
    e: Endpoint,
    token: string,
    query: ConstructorParameters<typeof URLSearchParams>[0] = {},
  ) {
    const answer = await fetchCall(e, token, query);
    const body = Buffer.from(await answer.arrayBuffer());
    return { status: answer.status, body, retryAfter: answer.headers.get('retry-after') };
  }

  const slowest = (scans: number[]) => Math.max(...scans);

  it('answers every scan within the overload limit while a lead downloads the whole journal as CSV', async () => {
    const { result, scans } = await scanWhile(base, worker, () => download(journalCsv, lead));
    expect(result.status).toBe(200);
    const lines = result.body.toString('utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(2 * JOURNAL_PAIRS);
    // The scans ran all along (the download took seconds), and none waited for it.
    expect(scans.length).toBeGreaterThan(5);
    expect(slowest(scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
  }, 120_000);

  it('answers every scan within the overload limit while 3,000 location labels are drawn as PDF, and as ZPL', async () => {
    const range = { from: 'Y-00-00', to: 'Y-29-99' };
    const pdf = await scanWhile(base, worker, () => download(lagerplatzPdf, lead, range));
    expect(pdf.result.status).toBe(200);
    expect(pdf.result.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.scans.length).toBeGreaterThan(5);
    expect(slowest(pdf.scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
    const zpl = await scanWhile(base, worker, () => download(lagerplatzZpl, lead, range));
    expect(zpl.result.status).toBe(200);
    expect(zpl.result.body.toString().match(/\^XA/g)).toHaveLength(LOCATIONS);
    expect(slowest(zpl.scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
  }, 120_000);

  it('answers every scan within the overload limit while an integration reads 10,000-row export pages', async () => {
    const { result, scans } = await scanWhile(base, worker, async () => {
      let rows = 0;
      for (let page = 0, cursor = ''; page < 4; page++) {
        const query: Record<string, string> = cursor ? { cursor } : { since: '2000-01-01T00:00:00Z' };
        const answer = await download(exportMovements, integration, { limit: '10000', ...query });
        expect(answer.status).toBe(200);
        const json = JSON.parse(answer.body.toString()) as { items: unknown[]; nextCursor: string };
        rows += json.items.length;
        cursor = json.nextCursor;
      }
      return rows;
    });
    expect(result).toBe(40_000);
    expect(slowest(scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
  }, 120_000);

  it('answers every scan within the overload limit while a lead releases a wave of 20,000 delivery notes', async () => {
    const db = t.database.db;
    await sql`
      insert into delivery_notes (belegnr, eu, versandart, created_at)
      select 'LS9' || lpad(g::text, 6, '0'), true, 'FLUR01', now() - (g || ' seconds')::interval
      from generate_series(1, ${WAVE_NOTES}::integer) g`.execute(db);
    await sql`
      insert into delivery_note_lines (delivery_note_id, article_id, lsmenge)
      select n.id, (select min(id) from articles), 1 from delivery_notes n where n.versandart = 'FLUR01'`.execute(
      db,
    );
    await sql`analyze delivery_notes`.execute(db);
    await sql`analyze delivery_note_lines`.execute(db);
    const profile = await writeCall(
      base,
      lead,
      kommissionierProfilAnlegen,
      {},
      {
        name: 'Alles auf dem Flur',
        versandart: null,
        maxPositionen: null,
        eu: null,
        eingangVor: null,
        proWagen: 20,
      },
    );
    expect(profile.status).toBe(200);
    const { id } = (await profile.json()) as { id: number };
    const { result, scans } = await scanWhile(base, worker, async () => {
      const answer = await writeCall(base, lead, welleFreigeben, { id }, {});
      return { status: answer.status, body: (await answer.json()) as { lieferscheine: number } };
    });
    expect(result.status).toBe(200);
    expect(result.body.lieferscheine).toBeGreaterThanOrEqual(WAVE_NOTES);
    expect(slowest(scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
    // The scans ran all along: the release took seconds in its steps.
    expect(scans.length).toBeGreaterThan(5);
  }, 120_000);

  it('lets one heavy operation run at a time: a second lead gets a German 503 with Retry-After, the scans go on', async () => {
    const { result, scans } = await scanWhile(base, worker, async () => {
      // The first download's answer has begun (its place is taken); its body is read only later, so it
      // holds the place meanwhile whatever the machine's speed.
      const first = await fetchCall(journalCsv, lead);
      const second = await download(lagerplatzPdf, lead, { from: 'Y-00-00', to: 'Y-29-99' });
      const third = await download(journalCsv, lead);
      const few = await download(lagerplatzPdf, lead, [
        ['codes', 'Y-00-01'],
        ['codes', 'Y-00-02'],
      ]);
      const firstBytes = (await first.arrayBuffer()).byteLength;
      return { first: first.status, firstBytes, second, third, few };
    });
    expect(result.first).toBe(200);
    expect(result.firstBytes).toBeGreaterThan(1_000_000);
    for (const refused of [result.second, result.third]) {
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body.toString())).toMatchObject({
        success: false,
        message: texts.errors.heavyBusy,
      });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    // A few labels are no heavy operation: they come while the large run holds its place.
    expect(result.few.status).toBe(200);
    expect(slowest(scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
    // Once the first has ended, the next may run.
    const again = await download(lagerplatzPdf, lead, { from: 'Y-00-00', to: 'Y-02-99' });
    expect(again.status).toBe(200);
  }, 120_000);
});
