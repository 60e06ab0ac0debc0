import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { zaehlauftraegeAnlegen, zaehlplanAnlegen } from '../../src/contract/leitstand/inventur.ts';
import { findLp } from '../../src/contract/lookup.ts';
import { buildPath } from '../../src/contract/path.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

/**
 * The floor comes first (DESIGN §10) also while a shift lead makes the count tasks of a whole warehouse:
 * 'Aufträge anlegen' for 20,000 locations goes in steps behind the handhelds, so a location lookup made in
 * the middle is answered within the overload limit. Against the real server on a port, as
 * test/api/floor-first.test.ts does for the other back-office work.
 */
const OVERLOAD_MAX_WAIT_MS = 500;
const LOCATIONS = 20_000;

describe.each(databaseKinds())('the floor while count tasks are made on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let worker: string;
  let lead: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { overloadMaxWaitMs: OVERLOAD_MAX_WAIT_MS });
    await sql`
      insert into locations (code, name, lagertyp)
      select 'FZ-' || lpad((n / 100)::text, 3, '0') || '-' || lpad((n % 100)::text, 2, '0'), '', 'Fach'
      from generate_series(0, ${LOCATIONS - 1}::integer) n`.execute(t.database.db);
    await sql`analyze locations`.execute(t.database.db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    worker = await loginAs(t.app, demo.passwordUser);
    lead = await loginAs(t.app, demo.leadUser);
  }, 180_000);
  afterAll(() => t.close());

  /** A staff write over a real socket, with its JSON body and a new X-Idempotency-Key. */
  const writeCall = (e: Endpoint, params: Record<string, string | number>, body: unknown) =>
    fetch(`${base}${buildPath(e.path, params)}`, {
      method: e.method,
      headers: {
        authorization: `Bearer ${lead}`,
        'content-type': 'application/json',
        'x-idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body),
    });

  it('answers every scan within the overload limit while tasks for 20,000 locations are made', async () => {
    const plan = await writeCall(
      zaehlplanAnlegen,
      {},
      {
        name: 'Ganzes Lager',
        art: 'bereich',
        von: 'FZ-000-00',
        bis: 'FZ-199-99',
        tage: null,
        klasse: null,
        faelligInTagen: 0,
        benutzerId: null,
      },
    );
    expect(plan.status).toBe(200);
    const { id } = (await plan.json()) as { id: number };
    const scans: number[] = [];
    let running = true;
    const scanner = (async () => {
      while (running) {
        const sent = performance.now();
        const answer = await fetch(`${base}${buildPath(findLp.path, { code: 'A-01-01-01' })}`, {
          headers: { authorization: `Bearer ${worker}` },
        });
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
        scans.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    let result: { status: number; body: { angelegt: number; uebersprungen: number } };
    try {
      const answer = await writeCall(zaehlauftraegeAnlegen, { id }, {});
      result = { status: answer.status, body: (await answer.json()) as typeof result.body };
    } finally {
      running = false;
      await scanner;
    }
    const took = performance.now() - started;
    expect(result.status).toBe(200);
    expect(result.body).toEqual(expect.objectContaining({ angelegt: LOCATIONS, uebersprungen: 0 }));
    const made = await t.database.db
      .selectFrom('count_tasks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('plan_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(made.n)).toBe(LOCATIONS);
    expect(Math.max(...scans)).toBeLessThan(OVERLOAD_MAX_WAIT_MS);
    // The scans ran all along: the creation took many steps.
    expect(scans.length).toBeGreaterThan(5);
    console.info(
      `${kind}: ${LOCATIONS} count tasks in ${Math.round(took)} ms; ${scans.length} scans meanwhile, slowest ${Math.round(Math.max(...scans))} ms`,
    );
  }, 180_000);
});
