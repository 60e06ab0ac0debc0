import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zaehlauftraegeAnlegen, zaehlplanAnlegen } from '../../src/contract/leitstand/inventur.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { scanWhile, writeCall } from '../support/floor.ts';

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

  it('answers every scan within the overload limit while tasks for 20,000 locations are made', async () => {
    const plan = await writeCall(
      base,
      lead,
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
    const started = performance.now();
    const { result, scans } = await scanWhile(base, worker, async () => {
      const answer = await writeCall(base, lead, zaehlauftraegeAnlegen, { id }, {});
      return {
        status: answer.status,
        body: (await answer.json()) as { angelegt: number; uebersprungen: number },
      };
    });
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
