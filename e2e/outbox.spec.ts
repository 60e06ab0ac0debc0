import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openPglite } from '../src/server/db/connect.ts';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.ts';
import { DEMO_CARD, loginWithPassword, scanInto } from './support/helpers.ts';
import { expect, test } from './support/test.ts';

/**
 * The outbox of capture scans (issue 10): scans made without a connection wait in the browser's IndexedDB
 * and reach the server later, each exactly once.
 */

/** A server of its own on a fresh embedded database, so the test can stop it and count rows in the database. */
const withOwnServer = test.extend<{ server: ServerProcess & { dataDir: string; stop(): Promise<void> } }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-outbox-'));
      const server = await startServerProcess({ DATA_DIR: dataDir });
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGTERM');
        await exited;
      };
      await use({ ...server, dataDir, stop });
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { timeout: 120_000 }, // a fresh database and its demo data: slow on a busy machine
  ],
  baseURL: async ({ server }, use) => use(server.base),
});

withOwnServer(
  '50 batch scans offline, a reload and a lost answer: each scan is in the database exactly once',
  async ({ page, context, server }) => {
    withOwnServer.setTimeout(180_000);
    await loginWithPassword(page);
    await page.getByRole('link', { name: 'Batch', exact: true }).click();
    const field = page.getByLabel('Batch');
    const badge = page.getByRole('link', { name: /Scans? nicht gesendet/ });

    // A dead zone: no network at all.
    await context.setOffline(true);
    for (let n = 1; n <= 50; n++) {
      // Batches 200001…200024 of the demo warehouse, in turn (the same code twice in a row is a double read).
      await scanInto(page, field, String(200_001 + (n % 24)));
      // (A scan within the second of the one before does not restart its flash: the badge counts each one.)
      if (n === 1) await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
      await expect(badge).toHaveText(new RegExp(`${n} Scans? nicht gesendet`));
    }
    await expect(page.getByText('Erfasst!')).toHaveCount(0);

    // The network is back but the server is not reachable yet; the worker reloads: the outbox is still there.
    const keysTried = new Set<string>();
    await page.route('**/api/batcherfassung', (route) => {
      keysTried.add(route.request().headers()['x-idempotency-key'] ?? '');
      return route.abort('connectionrefused');
    });
    await context.setOffline(false);
    await page.reload();
    await expect(badge).toHaveText('✉ 50 Scans nicht gesendet');
    // In order: the first scan is tried (again and again), the others wait behind it.
    await expect.poll(() => keysTried.size).toBeGreaterThan(0);
    await page.waitForTimeout(2_500); // past the next retry
    expect(keysTried.size).toBe(1);

    // The server is reachable again: the periodic retry sends all 50.
    const answers: { key: string; status: number; replayed: boolean }[] = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('/api/batcherfassung')) return;
      answers.push({
        key: response.request().headers()['x-idempotency-key'] ?? '',
        status: response.status(),
        replayed: response.headers()['idempotent-replayed'] === 'true',
      });
    });
    await page.unroute('**/api/batcherfassung');
    await expect(badge).toBeHidden({ timeout: 40_000 });
    expect(answers).toHaveLength(50);
    expect(new Set(answers.map((a) => a.key)).size).toBe(50);
    expect(answers.every((a) => a.status === 200 && !a.replayed)).toBe(true);
    expect(answers.map((a) => a.key)).toContain([...keysTried][0]); // the key of its first try

    // A scan whose first send reached the server, but whose answer was lost on the way back.
    const lost: { key: string; replayed: boolean }[] = [];
    await page.route('**/api/batcherfassung', async (route) => {
      const reached = await route.fetch();
      lost.push({
        key: route.request().headers()['x-idempotency-key'] ?? '',
        replayed: reached.headers()['idempotent-replayed'] === 'true',
      });
      await route.abort('connectionreset');
    });
    answers.length = 0;
    await scanInto(page, field, '123456');
    await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
    await expect(badge).toHaveText('✉ 1 Scan nicht gesendet');
    expect(lost[0]?.replayed).toBe(false); // the first try was applied
    await page.unroute('**/api/batcherfassung');
    await expect(badge).toBeHidden({ timeout: 20_000 });
    expect(answers).toEqual([{ key: lost[0]?.key, status: 200, replayed: true }]);

    // In the database: 51 captures, one per scan.
    await server.stop();
    const handle = await openPglite({ dataDir: server.dataDir });
    try {
      const events = await handle.db
        .selectFrom('batch_events')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('kind', '=', 'erfasst')
        .executeTakeFirstOrThrow();
      const keys = await handle.db
        .selectFrom('idempotency')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('route', '=', 'PUT /api/batcherfassung')
        .executeTakeFirstOrThrow();
      expect(events.n).toBe(51);
      expect(keys.n).toBe(51);
    } finally {
      await handle.close();
    }
  },
);

test('a scan the server refuses lands in Fehlgeschlagen until the worker has read it', async ({
  page,
  context,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Retoure', exact: true }).click();
  await context.setOffline(true);
  await scanInto(page, page.getByLabel('Trackingnummer'), 'UNBEKANNT4711');
  await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042557');
  await expect(page.getByRole('link', { name: /2 Scans nicht gesendet/ })).toBeVisible();

  await context.setOffline(false); // the browser's online event sends them
  const badge = page.getByRole('link', { name: /^1 fehlgeschlagen$/ });
  await expect(badge).toBeVisible();
  await page.reload(); // nothing disappears silently, not even after a reload
  await badge.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ungesendete Scans' })).toBeVisible();
  const failed = page.getByRole('region', { name: 'Fehlgeschlagen (1)' });
  await expect(failed).toContainText('Retoure: UNBEKANNT4711');
  await expect(failed).toContainText('Trackingnummer UNBEKANNT4711 kann nicht gefunden werden.');
  await page.getByRole('button', { name: 'Demo Nutzer abmelden' }).click(); // not read yet: it asks
  const warning = page.getByRole('dialog', { name: 'Trotzdem abmelden?' });
  await expect(warning).toContainText(
    '1 fehlgeschlagener Scan ist noch nicht gelesen. Sie bleiben auf diesem Gerät, bis Demo Nutzer sie gelesen hat.',
  );
  await warning.getByRole('button', { name: 'Abbrechen' }).click();
  await failed.getByRole('button', { name: 'Gelesen' }).click();
  await expect(page.getByText('Alle Scans sind gesendet.')).toBeVisible();
  await expect(badge).toBeHidden();
});

test('Wechselbrücke and Paketausgang wait offline too, and go out when the network is back', async ({
  page,
  context,
}) => {
  await loginWithPassword(page);
  // The capture screens' code comes right after login, so they open in a dead zone never visited before.
  const loaded = () =>
    page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .filter((e) => /\/(container|paketausgang)-screen-[^/]+\.js$/.test(e.name)).length,
    );
  await expect.poll(loaded).toBe(2);
  await page.waitForTimeout(300); // and the chunks they import, fetched alongside
  await context.setOffline(true);
  await page.getByRole('link', { name: 'Wechselbrücke', exact: true }).click();
  await page.getByRole('button', { name: 'DHL' }).click();
  await scanInto(page, page.getByLabel('Batch'), '200007');
  await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);
  await page.getByRole('link', { name: 'Zurück' }).click();
  await page.getByRole('link', { name: 'Paketausgang', exact: true }).click();
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042564');
  await expect(page.getByText('✉ Gespeichert – wird gesendet')).toBeVisible();
  await expect(page.getByRole('img', { name: /Versanddienstleister/ })).toHaveCount(0);
  const badge = page.getByRole('link', { name: '2 Scans nicht gesendet' });
  await badge.click();
  await expect(page.getByRole('region', { name: '2 Scans nicht gesendet' })).toContainText(
    'Wechselbrücke: ABGESCHLOSSENDHL · 200007',
  );
  await expect(page.getByRole('region', { name: '2 Scans nicht gesendet' })).toContainText(
    'Paketausgang: 00340434161094042564',
  );

  await context.setOffline(false);
  await expect(page.getByText('Alle Scans sind gesendet.')).toBeVisible();
  await expect(badge).toBeHidden();
});

test("logging out with unsent scans warns; the next worker's login does not send them, the scanner's own does", async ({
  page,
  context,
}) => {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Retoure', exact: true }).click();
  await context.setOffline(true);
  await expect(
    page.getByText('Scans werden gespeichert und gesendet, sobald das Netz zurück ist.'),
  ).toBeVisible();
  await scanInto(page, page.getByLabel('Trackingnummer'), '00340434161094042557');
  await expect(page.getByRole('status')).toHaveText(/Gespeichert – wird gesendet/);

  const logout = page.getByRole('button', { name: 'Demo Nutzer abmelden' });
  await logout.click();
  const warning = page.getByRole('dialog', { name: 'Trotzdem abmelden?' });
  await expect(warning).toContainText(
    '1 Scan ist noch nicht gesendet. Sie bleiben auf diesem Gerät und werden erst gesendet, wenn Demo Nutzer sich wieder anmeldet.',
  );
  await warning.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(logout).toBeVisible();
  await logout.click();
  await warning.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByLabel('Karte')).toBeFocused();

  // Another worker logs in on this device, online: Demo Nutzer's scan is shown, not sent.
  const sent: { authorization: string }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/retourenerfassung'))
      sent.push({ authorization: request.headers().authorization ?? '' });
  });
  await context.setOffline(false);
  await page.keyboard.type(DEMO_CARD);
  const cardUserLogout = page.getByRole('button', { name: 'Karten Nutzer abmelden' });
  await expect(cardUserLogout).toBeVisible();
  const badge = page.getByRole('link', { name: '1 von anderen Nutzern' });
  await badge.click();
  await expect(
    page.getByRole('region', {
      name: 'Von Demo Nutzer – wird erst gesendet, wenn Demo Nutzer sich anmeldet',
    }),
  ).toContainText('Retoure: 00340434161094042557');
  await page.waitForTimeout(2_500); // past the outbox's first retry
  expect(sent).toEqual([]);
  await cardUserLogout.click(); // nothing of this worker's own is unsent: no question
  await expect(page.getByLabel('Karte')).toBeFocused();

  // Demo Nutzer again: the scan goes out under that login.
  await loginWithPassword(page);
  await expect(badge).toBeHidden();
  await expect.poll(() => sent.length).toBe(1);
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  expect(sent[0]?.authorization).toBe(`Bearer ${token}`);
  await expect(page.getByRole('link', { name: /nicht gesendet/ })).toBeHidden();
});

test('online-only screens say so offline: Inventur, and Paketausgang while it compares a packed note', async ({
  page,
  context,
}) => {
  const waits = 'Keine Verbindung zum Server. Scans werden erst wieder angenommen, wenn das Netz zurück ist.';
  const keeps = 'Scans werden gespeichert und gesendet, sobald das Netz zurück ist.';
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await context.setOffline(true);
  await expect(page.getByText(waits)).toBeVisible();
  await context.setOffline(false);
  // The last step of packing LS100001 (the packing state as the flow leaves it in the tab).
  await page.evaluate(() =>
    sessionStorage.setItem(
      'lagerscanner.packing',
      JSON.stringify({ lieferscheinID: 1, belegnr: 'LS100001', step: 'ausgang', eu: 1, versandart: 'DHL' }),
    ),
  );
  await page.goto('/paketausgang');
  await expect(page.getByRole('heading', { level: 1, name: 'Paketausgang' })).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByText(waits)).toBeVisible();
  await expect(page.getByText(new RegExp(keeps))).toHaveCount(0);
});
