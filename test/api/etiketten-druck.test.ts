import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as etiketten from '../../src/contract/etiketten.ts';
import { drucken, druckerListe } from '../../src/contract/etiketten-druck.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { type BodyOf, caller } from '../support/endpoint-call.ts';
import { decodePng, renderZpl, zplFields, zplLabels } from '../support/labels.ts';

const t = etiketten.etikettenTexts;

/** A label printer's raw port on loopback: every connection's bytes are one job. */
async function fakePrinter(): Promise<{ port: number; jobs: string[]; close: () => Promise<void> }> {
  const jobs: string[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, jobs, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A port where nothing listens: the printer is switched off. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(databaseKinds())('printing labels on %s', (kind) => {
  let t0: TestApp;
  let printer: Awaited<ReturnType<typeof fakePrinter>>;
  let worker: string;
  let lead: string;
  let admin: string;

  beforeAll(async () => {
    printer = await fakePrinter();
    const dead = await deadPort();
    t0 = await startTestApp(kind, {
      printers: [
        { name: 'Versand', host: '127.0.0.1', port: printer.port, dpi: 203 },
        { name: 'Aus', host: '127.0.0.1', port: dead, dpi: 300 },
      ],
      // Test printers listen on this machine, on ports of their own: allowed by name (issue 39).
      printerRules: { ports: [9100, printer.port, dead], allowedAddresses: ['127.0.0.1'] },
    });
    worker = await loginAs(t0.app, demo.passwordUser);
    lead = await loginAs(t0.app, demo.leadUser);
    admin = await loginAs(t0.app, demo.adminUser);
  });
  afterAll(async () => {
    await t0.close();
    await printer.close();
  });
  beforeEach(() => {
    printer.jobs.length = 0;
  });

  const print = (body: BodyOf<typeof drucken>, as = worker, key?: string) =>
    caller(t0.app, as)(drucken, { body, key });

  /** The Protokoll's rows of one print job (by its key), as the worker's. */
  const printJournal = async (key: string) => {
    const workerId = await userIdOf(t0.database.db, demo.passwordUser.username);
    return t0.database.db
      .selectFrom('audit_log')
      .select(['subject', 'detail'])
      .where('action', '=', 'print.job')
      .where('request_key', '=', key)
      .where('user_id', '=', workerId)
      .execute();
  };

  it('a worker prints a location label: the printer receives exactly that label once, a repeat of the action prints nothing more', async () => {
    const key = randomUUID();
    const res = await print({ printer: 'Versand', kind: 'lagerplatz', codes: ['A-01-01-01'] }, worker, key);
    expect(res.json()).toEqual({ success: true, message: t.printed(1, 'Versand'), etiketten: 1 });
    await vi.waitFor(() => expect(printer.jobs).toHaveLength(1));
    // The job is the very ZPL the Leitstand downloads for that printer's size and resolution.
    const download = await caller(t0.app, lead)(etiketten.lagerplatzZpl, {
      query: { codes: 'A-01-01-01', groesse: '100x50', dpi: '203' },
    });
    expect(printer.jobs[0]).toBe(download.body);
    const [label] = zplLabels(printer.jobs[0] ?? '');
    expect(await decodePng(await renderZpl(label ?? '', 100, 50, 203))).toEqual([
      { format: 'Code128', text: 'A-01-01-01' },
    ]);

    const again = await print({ printer: 'Versand', kind: 'lagerplatz', codes: ['A-01-01-01'] }, worker, key);
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json()]).toEqual([
      200,
      'true',
      res.json(),
    ]);
    expect(printer.jobs).toHaveLength(1);
    // The job in the Protokoll, once: who, on which printer, what, printed.
    expect(await printJournal(key)).toEqual([
      { subject: 'Versand', detail: { kind: 'lagerplatz', labels: 1, outcome: 'done' } },
    ]);
  });

  it('two copies of one action at the same moment (a retry while the first still runs) print once', async () => {
    const key = randomUUID();
    const body = { printer: 'Versand', kind: 'zollwagen', codes: ['ZW03'] };
    const [a, b] = await Promise.all([print(body, worker, key), print(body, worker, key)]);
    expect([a.statusCode, b.statusCode, a.json(), b.json()]).toEqual([200, 200, a.json(), a.json()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(printer.jobs).toHaveLength(1);
  });

  it('a printer that does not answer: a German 409 within 5 s, nothing reported as printed, and a repeat does not print later', async () => {
    const key = randomUUID();
    const started = Date.now();
    const res = await print({ printer: 'Aus', kind: 'lhm', codes: [demo.locations.lhm] }, worker, key);
    expect(Date.now() - started).toBeLessThan(5000);
    expect([res.statusCode, res.json()]).toMatchObject([
      409,
      { success: false, message: t.printerDown('Aus') },
    ]);
    const again = await print({ printer: 'Aus', kind: 'lhm', codes: [demo.locations.lhm] }, worker, key);
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([409, 'true']);
    expect(await printJournal(key)).toEqual([
      { subject: 'Aus', detail: { kind: 'lhm', outcome: 'refused', reason: t.printerDown('Aus') } },
    ]);
  });

  it('a printer that takes no connection at all (no route to it) is refused within 5 s too', async () => {
    await caller(t0.app, admin)(etiketten.druckerAnlegen, {
      body: { name: 'Nirgends', host: '192.0.2.1', port: 9100, dpi: 203, groesse: '57x32' },
    });
    const started = Date.now();
    const res = await print({ printer: 'Nirgends', kind: 'zollwagen', codes: ['ZW01'] });
    expect(Date.now() - started).toBeLessThan(5000);
    expect([res.statusCode, res.json()]).toMatchObject([
      409,
      { success: false, message: t.printerDown('Nirgends') },
    ]);
  });

  it('what a worker may not print, and what nobody can', async () => {
    const refused = async (payload: BodyOf<typeof drucken>, as = worker) => {
      const res = await print(payload, as);
      return [res.statusCode, res.json().message];
    };
    expect(await refused({ printer: 'Versand', kind: 'artikel', codes: ['100001'] })).toEqual([
      403,
      t.artikelLeitstand,
    ]);
    expect(await refused({ printer: 'Versand', kind: 'ausweis', codes: [demo.cardUser.card] })).toEqual([
      403,
      t.ausweisAdmin,
    ]);
    expect(await refused({ printer: 'Versand', kind: 'ausweis', codes: [demo.cardUser.card] }, lead)).toEqual(
      [403, t.ausweisAdmin],
    );
    const eleven = [1, 2, 3]
      .flatMap((level) => [1, 2, 3, 4].map((place) => `A-01-0${level}-0${place}`))
      .slice(0, 11);
    expect(await refused({ printer: 'Versand', kind: 'lagerplatz', codes: eleven })).toEqual([
      400,
      t.handheldMax,
    ]);
    expect(await refused({ printer: 'Gibtsnicht', kind: 'lagerplatz', codes: ['A-01-01-01'] })).toEqual([
      404,
      t.printerUnknown('Gibtsnicht'),
    ]);
    expect(await refused({ printer: 'Versand', kind: 'lagerplatz', codes: ['X-9'] })).toEqual([
      404,
      t.unknown('lagerplatz', ['X-9']),
    ]);
    expect(await refused({ printer: 'Versand', kind: 'etikett', codes: ['X'] })).toEqual([
      400,
      texts.errors.input.invalid('Etikettenart'),
    ]);
    // Without the idempotency key every client sends: a raw request.
    const noKey = await t0.app.inject({
      method: 'POST',
      url: '/api/etiketten/druck',
      payload: { printer: 'Versand', kind: 'lagerplatz', codes: ['A-01-01-01'] },
      headers: authHeaders(worker),
    });
    expect([noKey.statusCode, noKey.json().message]).toEqual([400, texts.errors.missingIdempotencyKey]);
    expect(printer.jobs).toEqual([]);
  });

  it('the shift lead prints a range of locations and articles; the admin a badge', async () => {
    const range = await print(
      { printer: 'Versand', kind: 'lagerplatz', from: 'A-01-01-01', to: 'A-01-03-04' },
      lead,
    );
    expect(range.json()).toMatchObject({ success: true, etiketten: 12 });
    const articles = await print({ printer: 'Versand', kind: 'artikel', codes: ['100001', '100003'] }, lead);
    expect(articles.json()).toMatchObject({ success: true, etiketten: 2 });
    const badge = await print({ printer: 'Versand', kind: 'ausweis', codes: [demo.cardUser.card] }, admin);
    expect(badge.json()).toMatchObject({ success: true, etiketten: 1 });
    await vi.waitFor(() => expect(printer.jobs).toHaveLength(3));
    expect(printer.jobs.map((job) => zplLabels(job).length)).toEqual([12, 2, 1]);
    const [badgeLabel] = zplLabels(printer.jobs[2] ?? '');
    expect(await decodePng(await renderZpl(badgeLabel ?? '', 100, 50, 203))).toEqual([
      { format: 'QRCode', text: demo.cardUser.card },
    ]);
  });

  it('prints a run of more than 100 labels (drawn in the label worker) as one job, in code order', async () => {
    const run = await print(
      { printer: 'Versand', kind: 'lagerplatz', from: 'A-01-01-01', to: 'B-05-04-04' },
      lead,
    );
    expect(run.json()).toMatchObject({ success: true, etiketten: 160 });
    await vi.waitFor(() => expect(printer.jobs).toHaveLength(1));
    const labels = zplLabels(printer.jobs[0] ?? '');
    expect(labels).toHaveLength(160);
    expect([labels[0], labels[80], labels[159]].map((label) => zplFields(label ?? '').at(-1)?.data)).toEqual([
      'A-01-01-01',
      'B-01-01-01',
      'B-05-04-04',
    ]);
  });

  it('the admin sets up, changes and removes a printer (audited); every login sees the list without addresses', async () => {
    const asAdmin = caller(t0.app, admin);
    const anlegen = (body: BodyOf<typeof etiketten.druckerAnlegen>) =>
      asAdmin(etiketten.druckerAnlegen, { body });
    const form = { name: 'Wareneingang', host: '127.0.0.1', port: printer.port, dpi: 300, groesse: '57x32' };
    const created = await anlegen(form);
    expect(created.json()).toMatchObject({ success: true, message: t.printerSaved('Wareneingang') });
    const id = created.json().id as number;
    expect((await anlegen({ ...form, name: 'versand' })).json()).toMatchObject({
      success: false,
      message: t.printerNameTaken('versand'),
    });
    expect((await anlegen({ ...form, name: 'X', host: '10.0.0.1:9100' })).json()).toMatchObject({
      success: false,
      message: t.printerHostInvalid,
    });

    const list = await caller(t0.app, worker)(druckerListe);
    expect(list.json().drucker).toContainEqual({
      name: 'Wareneingang',
      dpi: 300,
      groesse: '57x32',
      quelle: 'leitstand',
    });
    expect(list.json().drucker).toContainEqual({
      name: 'Versand',
      dpi: 203,
      groesse: '100x50',
      quelle: 'umgebung',
    });
    expect(JSON.stringify(list.json())).not.toContain('127.0.0.1');

    // Printing to it uses its size and resolution.
    const res = await print({ printer: 'Wareneingang', kind: 'zollwagen', codes: ['ZW02'] });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(printer.jobs).toHaveLength(1));
    expect(printer.jobs[0]).toContain(`^PW${Math.round((57 * 300) / 25.4)}`);
    const [label] = zplLabels(printer.jobs[0] ?? '');
    expect(await decodePng(await renderZpl(label ?? '', 57, 32, 300))).toEqual([
      { format: 'Code128', text: 'ZW02' },
    ]);

    expect(
      (
        await asAdmin(etiketten.druckerAendern, { params: { id }, body: { ...form, name: 'WE', dpi: 203 } })
      ).json(),
    ).toMatchObject({ success: true });
    expect((await asAdmin(etiketten.druckerEntfernen, { params: { id }, body: {} })).json()).toEqual({
      success: true,
      message: t.printerRemoved('WE'),
    });
    expect((await asAdmin(etiketten.druckerEntfernen, { params: { id }, body: {} })).json()).toMatchObject({
      success: false,
      message: t.printerNotFound(id),
    });
    const audit = await t0.database.db
      .selectFrom('audit_log')
      .select(['action', 'subject'])
      .where('action', 'like', 'printer.%')
      .where('subject', 'in', ['Wareneingang', 'WE'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'printer.create', subject: 'Wareneingang' },
      { action: 'printer.update', subject: 'WE' },
      { action: 'printer.remove', subject: 'WE' },
    ]);
  });
});
