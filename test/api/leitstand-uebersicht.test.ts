import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as auth from '../../src/contract/auth.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import * as benutzer from '../../src/contract/leitstand/benutzer.ts';
import {
  leitstandLive,
  leitstandTexts,
  leitstandUebersicht,
} from '../../src/contract/leitstand/uebersicht.ts';
import { retourenerfassung } from '../../src/contract/retoure.ts';
import { texts } from '../../src/contract/texts.ts';
import { testConfig } from '../../src/server/config.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds, emptyPostgresDatabase } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';
import { startServerProcess } from '../support/server-process.ts';

/** Reads server-sent events from a live stream until `until` holds for one, or the time is up. */
async function nextEvent(
  response: Response,
  until: (event: { event: string; data: string }) => boolean,
  withinMs: number,
): Promise<{ event: string; data: string } | null> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  const deadline = Date.now() + withinMs;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (!chunk || chunk.done) return null;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
        if (until({ event, data })) return { event, data };
        end = buffer.indexOf('\n\n');
      }
    }
    return null;
  } finally {
    reader.releaseLock();
  }
}

/** Reads a live stream until it ends or the time is up: whether it ended, and the events it sent meanwhile. */
async function readUntilEnd(
  response: Response,
  withinMs: number,
): Promise<{ ended: boolean; events: string[] }> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  const events = () => [...text.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
  const deadline = Date.now() + withinMs;
  try {
    for (;;) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (!chunk) return { ended: false, events: events() as string[] };
      if (chunk.done) return { ended: true, events: events() as string[] };
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

const inventurBody = (locationId: number, articleId: number) => ({
  lp: locationId,
  article: articleId,
  amount: 7,
});

describe.each(databaseKinds())('Leitstand Übersicht on %s', (kind) => {
  let t: TestApp;
  let worker: string;
  let lead: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    worker = await loginDemo(t.app);
    lead = await loginAs(t.app, demo.leadUser);
  });
  afterAll(async () => {
    streams.abort();
    // Keep-alive connections the streams' clients left behind would hold up the server's close for a minute.
    if (listening) t.app.server.closeAllConnections();
    await t.close();
  });

  let listening: string | null = null;
  /** The app on a real socket (a stream needs one), started once. */
  const base = async () => {
    if (!listening) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      listening = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }
    return listening;
  };

  /**
   * A live stream of this login, open (its `ready` read). Ended by the test's end: cancelling a fetch's body
   * does not always close its connection, and an open stream holds up the server's close.
   */
  const streams = new AbortController();
  const admitted = async (token: string, signal: AbortSignal = streams.signal) => {
    const live = await fetch(`${await base()}${leitstandLive.path}`, {
      headers: authHeaders(token),
      signal: AbortSignal.any([signal, streams.signal]),
    });
    expect(live.status).toBe(200);
    expect(await nextEvent(live, (e) => e.event === 'ready', 2000)).not.toBeNull();
    return live;
  };

  const ids = async () => {
    const location = await t.database.db
      .selectFrom('locations')
      .select('id')
      .where('code', '=', demo.locations.main)
      .executeTakeFirstOrThrow();
    const article = await t.database.db
      .selectFrom('articles')
      .select('id')
      .where('nummer', '=', demo.article.nummer)
      .executeTakeFirstOrThrow();
    return { locationId: location.id, articleId: article.id };
  };
  const overview = (token = lead) => caller(t.app, token)(leitstandUebersicht);
  const book = (locationId: number, articleId: number) =>
    caller(t.app, worker)(bookInventur, { body: inventurBody(locationId, articleId) });

  it('counts today’s scans per screen and hour, who scanned last where, and refused logins', async () => {
    const { locationId, articleId } = await ids();
    const booked = await book(locationId, articleId);
    expect(booked.statusCode).toBe(200);
    const refusedLogin = await caller(t.app, null)(auth.loginPassword, {
      body: { username: 'demo', password: 'falsch' },
    });
    expect(refusedLogin.statusCode).toBe(401);

    const res = await overview();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.proBildschirm).toContainEqual({ bildschirm: texts.menu.inventur, scans: 1, abgelehnt: 0 });
    const hourNow = Number(
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Berlin' })
        .formatToParts(new Date())
        .find((part) => part.type === 'hour')?.value,
    );
    expect(data.proStunde).toContainEqual({ stunde: hourNow, scans: 1 });
    expect(data.zuletzt[0]).toMatchObject({
      mitarbeiter: demo.passwordUser.name,
      bildschirm: texts.menu.inventur,
    });
    expect(data.fehlgeschlageneAnmeldungen).toBe(1);
  });

  it('lists open Klärfälle, open customs carts with their parcels, and notes in packing', async () => {
    // An open Klärfall is its own row (decision 20); written directly, so no change is announced on the live
    // stream the last test listens to.
    const reported = await t.database.db
      .updateTable('delivery_notes')
      .set({ status: 'klaerfall', klaerfall_at: new Date() })
      .where('belegnr', '=', 'LS100040')
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db.insertInto('klaerfaelle').values({ delivery_note_id: reported.id }).execute();
    const note = await t.database.db
      .selectFrom('delivery_notes')
      .select('id')
      .where('belegnr', '=', 'LS100041')
      .executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('delivery_note_lines')
      .set({ pemenge: 1 })
      .where('delivery_note_id', '=', note.id)
      .where('lsmenge', '>', 1)
      .execute();
    const data = (await overview()).json().data;
    expect(data.offeneKlaerfaelle.map((k: { belegnr: string }) => k.belegnr)).toContain('LS100040');
    expect(data.imPacken.map((n: { belegnr: string }) => n.belegnr)).toContain('LS100041');
    for (const cart of data.offeneZollwagen) expect(cart.pakete).toBeGreaterThanOrEqual(0);
  });

  it('knows a note is in packing whichever way its lines change: scanned, sent back, completed, moved, deleted', async () => {
    const db = t.database.db;
    const inPacking = async () =>
      (await overview()).json().data.imPacken.map((n: { belegnr: string }) => n.belegnr) as string[];
    const note = await db
      .insertInto('delivery_notes')
      .values({ belegnr: 'LS-PACK-1', eu: true, versandart: 'DHL037' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await db
      .insertInto('delivery_notes')
      .values({ belegnr: 'LS-PACK-2', eu: true, versandart: 'DHL037' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const article = await db
      .selectFrom('articles')
      .select('id')
      .where('nummer', '=', demo.article.nummer)
      .executeTakeFirstOrThrow();
    const lines = await db
      .insertInto('delivery_note_lines')
      .values([
        { delivery_note_id: note.id, article_id: article.id, lsmenge: 3, pemenge: 0 },
        { delivery_note_id: note.id, article_id: article.id, lsmenge: 2, pemenge: 2 },
      ])
      .returning('id')
      .execute();
    const [first, second] = lines.map((l) => l.id) as [number, number];
    // Inserted with something packed: in packing.
    expect(await inPacking()).toContain('LS-PACK-1');
    // Sent back (all lines 0): no longer.
    await db
      .updateTable('delivery_note_lines')
      .set({ pemenge: 0 })
      .where('delivery_note_id', '=', note.id)
      .execute();
    expect(await inPacking()).not.toContain('LS-PACK-1');
    // One piece scanned again: in packing; the line moved to the other note takes it along.
    await db.updateTable('delivery_note_lines').set({ pemenge: 1 }).where('id', '=', first).execute();
    expect(await inPacking()).toContain('LS-PACK-1');
    await db
      .updateTable('delivery_note_lines')
      .set({ delivery_note_id: other.id })
      .where('id', '=', first)
      .execute();
    expect(await inPacking()).toEqual(expect.arrayContaining(['LS-PACK-2']));
    expect(await inPacking()).not.toContain('LS-PACK-1');
    // Deleted: gone; every note's count matches its lines.
    await db.deleteFrom('delivery_note_lines').where('id', 'in', [first, second]).execute();
    expect(await inPacking()).not.toContain('LS-PACK-2');
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from delivery_notes d
      where d.lines_started <> (select count(*) from delivery_note_lines l where l.delivery_note_id = d.id and l.pemenge > 0)`.execute(
      db,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('refuses a worker with the German message', async () => {
    const res = await overview(worker);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });
  });

  it('announces a booking on the live stream within 2 s, and refuses the stream to a worker', async () => {
    const url = `${await base()}${leitstandLive.path}`;
    const refused = await fetch(url, { headers: authHeaders(worker) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, message: texts.errors.role.schichtleitung });

    const live = await fetch(url, { headers: authHeaders(lead), signal: streams.signal });
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toContain('text/event-stream');
    expect(await nextEvent(live, (e) => e.event === 'ready', 2000)).not.toBeNull();
    const { locationId, articleId } = await ids();
    const started = Date.now();
    await book(locationId, articleId);
    const change = await nextEvent(live, (e) => e.event === 'change', 2000);
    expect(change && JSON.parse(change.data)).toEqual({ topics: ['bookInventur'] });
    expect(Date.now() - started).toBeLessThan(2000);
    await live.body?.cancel();
  });

  it('ends a live stream when its login ends, its role is lowered or its user is switched off', async () => {
    const url = `${await base()}${leitstandLive.path}`;
    const admin = await loginAs(t.app, demo.adminUser);
    const newLead = async (username: string) => {
      const created = await caller(t.app, admin)(benutzer.createUser, {
        body: { username, name: username, role: 'schichtleitung', password: 'geheim-123', newCard: false },
      });
      expect(created.statusCode, created.body).toBe(200);
      const id: number = created.json().user.id;
      return { id, token: await loginAs(t.app, { username, password: 'geheim-123' }) };
    };
    const asAdmin = caller(t.app, admin);

    // A logout through this instance ends its streams at once.
    const loggedOut = await loginAs(t.app, demo.leadUser);
    const first = await admitted(loggedOut);
    const logout = await caller(t.app, loggedOut)(auth.logout);
    expect(logout.statusCode).toBe(200);
    expect(await readUntilEnd(first, 1000)).toEqual({ ended: true, events: [] });

    // A lowered role: the booking's event is not sent, the stream ends.
    const demoted = await newLead('leitung-live-rolle');
    const second = await admitted(demoted.token);
    expect(
      (await asAdmin(benutzer.setUserRole, { params: { id: demoted.id }, body: { role: 'mitarbeiter' } }))
        .statusCode,
    ).toBe(200);
    const { locationId, articleId } = await ids();
    await book(locationId, articleId);
    expect(await readUntilEnd(second, 3000)).toEqual({ ended: true, events: [] });

    // A user switched off, with nothing booked: the stream's own check ends it (every second with the cache off).
    const switchedOff = await newLead('leitung-live-aus');
    const third = await admitted(switchedOff.token);
    expect(
      (await asAdmin(benutzer.setUserActive, { params: { id: switchedOff.id }, body: { active: false } }))
        .statusCode,
    ).toBe(200);
    expect(await readUntilEnd(third, 3000)).toEqual({ ended: true, events: [] });

    // Each is refused when it comes back, as every other call is.
    for (const token of [loggedOut, demoted.token, switchedOff.token]) {
      const again = await fetch(url, { headers: authHeaders(token) });
      expect([401, 403]).toContain(again.status);
      await again.body?.cancel();
    }
  });

  it('answers HEAD without a stream, and holds at most LIVE_STREAMS_PER_LOGIN streams per login', async () => {
    const root = await base();
    const head = await new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
      const req = httpRequest(
        `${root}${leitstandLive.path}`,
        { method: 'HEAD', headers: authHeaders(lead) },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] }));
        },
      );
      req.setTimeout(2000, () =>
        req.destroy(new Error('HEAD /api/leitstand/live did not finish within 2 s')),
      );
      req.on('error', reject);
      req.end();
    });
    expect(head).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });

    const max = testConfig().liveStreamsPerLogin;
    const token = await loginAs(t.app, demo.leadUser);
    const closing = new AbortController();
    await admitted(token, closing.signal);
    for (let i = 1; i < max; i++) await admitted(token);
    const refused = await fetch(`${root}${leitstandLive.path}`, { headers: authHeaders(token) });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      success: false,
      message: leitstandTexts.tooManyStreams(max),
    });
    // Another login of the same user has streams of its own.
    await (await admitted(lead)).body?.cancel();
    // A closed one makes room.
    closing.abort();
    await expect
      .poll(async () => {
        const again = await fetch(`${root}${leitstandLive.path}`, {
          headers: authHeaders(token),
          signal: streams.signal,
        });
        if (again.status !== 200) await again.body?.cancel();
        return again.status;
      })
      .toBe(200);
  });
});

describe('the live stream across two server instances on one PostgreSQL', () => {
  const adminUrl = inject('pgAdminUrl');
  it.skipIf(!adminUrl)(
    'a Leitstand connected to one instance hears a booking made through the other',
    async () => {
      const url = await emptyPostgresDatabase(adminUrl as string, 'live');
      const env = { DATABASE_URL: url, SEED_DEMO: 'true', SESSION_CACHE_SECONDS: '0' };
      const first = await startServerProcess(env);
      const second = await startServerProcess(env);
      try {
        const login = async (base: string, user: { username: string; password: string }) =>
          (
            (await (
              await fetch(`${base}${auth.loginPassword.path}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ username: user.username, password: user.password }),
              })
            ).json()) as { token: string }
          ).token;
        const lead = await login(first.base, demo.leadUser);
        const worker = await login(second.base, demo.passwordUser);
        const live = await fetch(`${first.base}${leitstandLive.path}`, { headers: authHeaders(lead) });
        expect(await nextEvent(live, (e) => e.event === 'ready', 5000)).not.toBeNull();
        // A capture through the second instance (no ids needed): a parcel scanned out.
        const started = Date.now();
        const booked = await fetch(`${second.base}${retourenerfassung.path}`, {
          method: retourenerfassung.method,
          headers: {
            ...authHeaders(worker),
            'content-type': 'application/json',
            'x-idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ tracking: demo.tracking }),
        });
        expect(booked.status, await booked.clone().text()).toBe(200);
        const change = await nextEvent(live, (e) => e.event === 'change', 2000);
        expect(change && JSON.parse(change.data)).toEqual({ topics: ['retourenerfassung'] });
        expect(Date.now() - started).toBeLessThan(2000);
        await live.body?.cancel();
      } finally {
        await first.killHard();
        await second.killHard();
      }
    },
    180_000,
  );
});
