// Raw HTTP on purpose: each request comes from a client address of its own; the contract caller sets none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMessages, exportMovements } from '../../src/contract/export.ts';
import { createIntegrationToken } from '../../src/server/auth/integration-tokens.ts';
import { authHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';

/**
 * Issue 39 row 7: integration tokens had no attempt limit — 300 wrong ones in 9 s, never a 429. Now as the
 * logins (decision 14): counted per client address before the check, locked at LOGIN_MAX_FAILURES_PER_IP.
 */
describe.each(databaseKinds())('wrong integration tokens on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const MAX = 5;
  beforeAll(async () => {
    t = await startTestApp(kind, { loginMaxFailuresPerIp: MAX });
    token = await createIntegrationToken(t.database.db, 'erp');
  });
  afterAll(() => t.close());

  const exportFrom = (address: string, bearer: string) =>
    t.app.inject({
      method: 'GET',
      url: `${exportMovements.path}?since=2020-01-01T00:00:00Z&limit=1`,
      headers: authHeaders(bearer),
      remoteAddress: address,
    });

  it('locks an address after too many wrong tokens (429, also for the right one); another address goes on', async () => {
    const answers: number[] = [];
    for (let i = 0; i < MAX + 3; i++)
      answers.push((await exportFrom('192.0.2.50', `lsi_wrong${i}`)).statusCode);
    expect(answers).toEqual([...Array(MAX).fill(401), 429, 429, 429]);
    const locked = await exportFrom('192.0.2.50', token);
    expect([locked.statusCode, locked.json().message]).toEqual([429, exportMessages.tooManyTokens]);
    expect((await exportFrom('192.0.2.51', token)).statusCode).toBe(200);
    // Right tokens are not counted: many of them from one address never lock it.
    for (let i = 0; i < MAX + 1; i++) expect((await exportFrom('192.0.2.52', token)).statusCode).toBe(200);
  });
});
