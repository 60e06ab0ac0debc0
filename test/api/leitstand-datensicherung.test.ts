import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as datensicherung from '../../src/contract/leitstand/datensicherung.ts';
import { texts } from '../../src/contract/texts.ts';
import { recordBackup } from '../../src/server/repositories/backup.repository.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('Leitstand › Datensicherung on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof caller>;
  let now = Date.parse('2027-03-01T08:00:00Z');
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { clock: () => now });
    admin = caller(t.app, await loginAs(t.app, demo.adminUser));
  });
  afterAll(() => t.close());

  const read = async () => {
    const res = await admin(datensicherung.datensicherung);
    expect(res.statusCode).toBe(200);
    return res.json<{ letzte: datensicherung.LastBackupRow | null; veraltet: boolean }>();
  };

  it('warns while no backup is noted', async () => {
    expect(await read()).toEqual({ letzte: null, veraltet: true });
  });

  it('shows the last backup, and warns once it is more than a day old', async () => {
    const record = {
      startedAt: '2027-03-01T02:30:00.000Z',
      finishedAt: '2027-03-01T02:31:10.000Z',
      bytes: 12_345_678,
      database: kind,
      online: true,
    };
    await recordBackup(t.database.db, record);
    expect(await read()).toEqual({ letzte: record, veraltet: false });
    now = Date.parse('2027-03-02T02:31:10.000Z');
    expect((await read()).veraltet).toBe(false);
    now += 1000;
    expect(await read()).toMatchObject({ letzte: record, veraltet: true });
  });

  it('is for the admin only', async () => {
    const lead = caller(t.app, await loginAs(t.app, demo.leadUser));
    const res = await lead(datensicherung.datensicherung);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: texts.errors.role.admin });
  });
});
