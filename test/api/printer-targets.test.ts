import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { druckerAnlegen, etikettenTexts as t } from '../../src/contract/etiketten.ts';
import { drucken } from '../../src/contract/etiketten-druck.ts';
import { buildApp } from '../../src/server/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * Issue 39 row 4: printers were a port scanner — an admin could add `127.0.0.1:3911` (or `localhost`,
 * `2130706433`, `169.254.169.254`), a worker's print made the server connect there and report success.
 */
describe.each(databaseKinds())('printer addresses and ports on %s', (kind) => {
  let app: TestApp;
  let admin: string;
  let worker: string;
  /** Something listening on this machine, as a database or another service would. */
  let service: net.Server;
  let servicePort: number;
  let connections = 0;

  beforeAll(async () => {
    service = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    servicePort = (service.address() as net.AddressInfo).port;
    // Its port allowed, so that only the address rule stands between a printer row and the service.
    app = await startTestApp(kind, { printerRules: { ports: [9100, servicePort], allowedAddresses: [] } });
    admin = await loginAs(app.app, demo.adminUser);
    worker = await loginAs(app.app, demo.passwordUser);
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => service.close(resolve));
  });

  const addPrinter = (host: string, port: number) =>
    caller(app.app, admin)(druckerAnlegen, {
      body: { name: `P-${randomUUID().slice(0, 8)}`, host, port, dpi: 203, groesse: '100x50' },
    });
  const printerCount = async () =>
    (await app.database.db.selectFrom('printers').select('id').execute()).length;

  it('refuses the admin a printer on this machine, a blocked address in any spelling, or a port not allowed', async () => {
    const before = await printerCount();
    const refused = async (host: string, port = 9100) => {
      const res = await addPrinter(host, port);
      return [host, port, res.statusCode, res.json().message];
    };
    for (const host of [
      '127.0.0.1',
      'localhost',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(await refused(host)).toEqual([host, 9100, 400, t.printerAddressBlocked(host)]);
    for (const host of ['2130706433', '0x7f000001', '127.1'])
      expect(await refused(host)).toEqual([host, 9100, 400, t.printerHostNumeric]);
    expect(await refused('192.0.2.10', 3911)).toEqual([
      '192.0.2.10',
      3911,
      400,
      t.printerPortBlocked(3911, [9100, servicePort]),
    ]);
    expect(await printerCount()).toBe(before);
    // A printer on the network on 9100 is what printers are.
    expect((await addPrinter('192.0.2.10', 9100)).statusCode).toBe(200);
  });

  it('never connects a worker’s print to a printer row on this machine (saved before the rule): 409, nothing sent', async () => {
    await app.database.db
      .insertInto('printers')
      .values({ name: 'Alt', host: '127.0.0.1', port: servicePort, dpi: 203, groesse: '100x50' })
      .execute();
    const res = await caller(app.app, worker)(drucken, {
      body: { printer: 'Alt', kind: 'lagerplatz', codes: ['A-01-01-01'] },
    });
    expect([res.statusCode, res.json()]).toMatchObject([
      409,
      { success: false, message: t.printerBlocked('Alt') },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
  });

  it('does not start when PRINTERS and the admin’s list name the same printer', async () => {
    await app.database.db
      .insertInto('printers')
      .values({ name: 'Lager', host: '192.0.2.20', port: 9100, dpi: 203, groesse: '57x32' })
      .execute();
    const second = await buildApp({
      db: app.database.db,
      config: testConfig({ printers: [{ name: 'LAGER', host: '192.0.2.21', port: 9100, dpi: 300 }] }),
      exclusiveDatabase: false,
    });
    await expect(second.ready()).rejects.toThrow(
      'PRINTERS names the printer "LAGER" (192.0.2.21:9100), and the Leitstand\'s printer list has "Lager" (192.0.2.20:9100): rename one of them',
    );
    await second.close();
  });
});
