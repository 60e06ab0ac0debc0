import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMovements } from '../../src/contract/export.ts';
import * as schnittstellen from '../../src/contract/leitstand/schnittstellen.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

const refusals = schnittstellen.schnittstellenTexts.refusals;

describe.each(databaseKinds())('Leitstand › Schnittstellen on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof caller>;
  let adminId: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = caller(t.app, await loginAs(t.app, demo.adminUser));
    adminId = await userIdOf(t.database.db, 'admin');
  });
  afterAll(() => t.close());

  const exportWith = (token: string) =>
    caller(t.app, token)(exportMovements, { query: { since: '2026-01-01T00:00:00Z' } });
  const auditRows = (subject: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail', 'request_key'])
      .where('subject', '=', subject)
      .orderBy('id')
      .execute();
  const list = async () =>
    (await admin(schnittstellen.integrationTokens)).json<{ tokens: schnittstellen.TokenRow[] }>().tokens;

  it('creates a token shown once that the export API takes; a repeat answers without it and creates none', async () => {
    const key = randomUUID();
    const res = await admin(schnittstellen.createIntegrationToken, { body: { name: 'erp-export' }, key });
    expect(res.statusCode).toBe(200);
    const { token } = res.json<{ name: string; token: string }>();
    expect(res.json()).toEqual({ name: 'erp-export', token: expect.stringMatching(/^lsi_[\w-]{43}$/) });
    expect((await exportWith(token)).statusCode).toBe(200);

    const repeat = await admin(schnittstellen.createIntegrationToken, { body: { name: 'erp-export' }, key });
    expect([repeat.statusCode, repeat.json()]).toEqual([200, { name: 'erp-export', token: null }]);
    expect((await list()).filter((t) => t.name === 'erp-export')).toHaveLength(1);
    expect(await auditRows('erp-export')).toEqual([
      { user_id: adminId, action: 'token.create', subject: 'erp-export', detail: {}, request_key: key },
    ]);
    // The token is nowhere in the database in clear.
    const dump = JSON.stringify([
      await t.database.db.selectFrom('integration_tokens').selectAll().execute(),
      await t.database.db.selectFrom('audit_log').selectAll().execute(),
      await t.database.db.selectFrom('idempotency').selectAll().execute(),
    ]);
    expect(dump).not.toContain(token);
  });

  it('lists the tokens: name, created, last used, revoked', async () => {
    expect((await list()).find((t) => t.name === 'erp-export')).toEqual({
      name: 'erp-export',
      createdAt: expect.stringMatching(/^\d{4}-/),
      lastUsedAt: expect.stringMatching(/^\d{4}-/), // the export above used it
      revokedAt: null,
    });
  });

  it('revokes a token: the export API answers 401 at once; journalled; the name is free again', async () => {
    const { token } = (
      await admin(schnittstellen.createIntegrationToken, { body: { name: 'bi-tool' } })
    ).json<{
      token: string;
    }>();
    const key = randomUUID();
    const res = await admin(schnittstellen.revokeIntegrationToken, { body: { name: 'bi-tool' }, key });
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'bi-tool' }]);
    expect((await exportWith(token)).statusCode).toBe(401);
    expect((await list()).find((t) => t.name === 'bi-tool')?.revokedAt).toMatch(/^\d{4}-/);
    // The same action again replays; a new revoke of the same name finds no live token.
    expect(
      (await admin(schnittstellen.revokeIntegrationToken, { body: { name: 'bi-tool' }, key })).statusCode,
    ).toBe(200);
    const again = await admin(schnittstellen.revokeIntegrationToken, { body: { name: 'bi-tool' } });
    expect([again.statusCode, again.json().message]).toEqual([404, refusals.unknown('bi-tool')]);
    expect((await auditRows('bi-tool')).map((a) => [a.action, a.user_id])).toEqual([
      ['token.create', adminId],
      ['token.revoke', adminId],
    ]);
    const renewed = await admin(schnittstellen.createIntegrationToken, { body: { name: 'bi-tool' } });
    expect(renewed.statusCode).toBe(200);
  });

  it('refuses a bad or taken name in German, and writes nothing', async () => {
    const before = await t.database.db.selectFrom('audit_log').select('id').execute();
    for (const [name, status, message] of [
      ['mit leerzeichen', 400, refusals.nameInvalid],
      ['-vorne', 400, refusals.nameInvalid],
      ['', 400, refusals.nameInvalid],
      ['x'.repeat(101), 400, refusals.nameInvalid],
      ['erp\u0000', 400, texts.errors.input.controlCharacterTyped('Name')],
      ['erp-export', 409, refusals.nameTaken('erp-export')],
    ] as const) {
      const res = await admin(schnittstellen.createIntegrationToken, { body: { name } });
      expect([name, res.statusCode, res.json()]).toMatchObject([name, status, { success: false, message }]);
    }
    expect(await t.database.db.selectFrom('audit_log').select('id').execute()).toEqual(before);
  });

  it('refuses a shift lead and a worker with 403 in German', async () => {
    for (const user of [demo.leadUser, demo.passwordUser]) {
      const as = caller(t.app, await loginAs(t.app, user));
      for (const endpoint of [
        schnittstellen.integrationTokens,
        schnittstellen.createIntegrationToken,
        schnittstellen.revokeIntegrationToken,
      ]) {
        const res = await as(endpoint, { body: { name: 'erp-export' } });
        expect([endpoint.name, res.statusCode, res.json().message]).toEqual([
          endpoint.name,
          403,
          texts.errors.role.admin,
        ]);
      }
    }
    expect((await list()).find((t) => t.name === 'erp-export')?.revokedAt).toBeNull();
  });
});
