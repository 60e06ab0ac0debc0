// Raw HTTP on purpose where it sends half a body over a socket; whole calls go through the contract caller.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath } from '../../src/contract/endpoint.ts';
import { ausweisDatei } from '../../src/contract/etiketten.ts';
import { drucken } from '../../src/contract/etiketten-druck.ts';
import { bookInventur } from '../../src/contract/inventur.ts';
import * as benutzer from '../../src/contract/leitstand/benutzer.ts';
import { runImport } from '../../src/contract/leitstand/import.ts';
import { nachschubMinimumSetzen } from '../../src/contract/leitstand/nachschub.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { authHeaders, loginAs, loginDemo, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

/**
 * Sends a request's headers announcing `announced` bytes of JSON body but only its first bytes, and waits
 * for the answer: a server that checks the login from the headers answers at once; one that reads the body
 * first waits for bytes that never come.
 */
function answerBeforeBody(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  announced: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(announced) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.setTimeout(2000, () => req.destroy(new Error(`${method} ${path}: no answer before its body`)));
    req.on('error', reject);
    req.write('{"a":"');
  });
}

describe.each(databaseKinds())('a login refused before the body, journalled and logged, on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let worker: string;
  let lead: string;
  const logLines: string[] = [];
  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => logLines.push(...String(chunk).split('\n').filter(Boolean)));
    t = await startTestApp(kind, { logLevel: 'info' }, { logStream });
    worker = await loginDemo(t.app);
    lead = await loginAs(t.app, demo.leadUser);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  // A route of each way calls are registered: contract calls, a download with a body, the print job, the upload.
  const importArticles = buildPath(runImport.path, { kind: 'articles' });
  const calls = (
    [
      [benutzer.createUser, {}, 'admin'],
      [ausweisDatei, {}, 'admin'],
      [runImport, { kind: 'articles' }, 'admin'],
      [nachschubMinimumSetzen, {}, 'schichtleitung'],
      [drucken, {}, null],
      [bookInventur, {}, null],
    ] as const
  ).map(([e, params, role]) => [e.method, buildPath(e.path, params), role] as const);

  it('answers 401 without a login and 403 to a lower role from the headers, before the body', async () => {
    for (const [method, path, role] of calls) {
      // 60 KB: within BODY_LIMIT_KB, so only the login stands in the way.
      const anonymous = await answerBeforeBody(base, method, path, {}, 60_000);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      if (!role) continue;
      const lower = await answerBeforeBody(base, method, path, authHeaders(worker), 60_000);
      expect(lower.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(lower.body)).toMatchObject({ success: false, message: texts.errors.role[role] });
    }
    // Above BODY_LIMIT_KB it is still the login that is refused first (413 told anyone the limits).
    expect((await answerBeforeBody(base, 'POST', benutzer.createUser.path, {}, 20_000_000)).status).toBe(401);
    const lowered = await answerBeforeBody(base, 'POST', importArticles, authHeaders(lead), 20_000_000);
    expect(lowered.status).toBe(403);
  });

  it('journals a refused role with who, which call and when, and names the user in the log', async () => {
    const workerId = await userIdOf(t.database.db, demo.passwordUser.username);
    const since = new Date(Date.now() - 1000);
    const refused = await caller(t.app, worker)(benutzer.setUserRole, {
      params: { id: 1 },
      body: { role: 'admin' },
    });
    expect(refused.statusCode).toBe(403);
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail', 'at'])
      .where('action', '=', 'access.denied')
      .where('subject', '=', 'PUT /api/admin/benutzer/:id/rolle')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: workerId, detail: { outcome: 'refused', role: 'mitarbeiter' } });
    expect(rows[0]?.at.getTime()).toBeGreaterThanOrEqual(since.getTime());
    const logged = logLines
      .map((line) => JSON.parse(line) as { msg?: string; status?: number; user?: number; reqId?: string })
      .filter((line) => line.msg === 'request refused' && line.status === 403);
    expect(logged.at(-1)?.user).toBe(workerId);
  });

  it('journals demoting the last admin, refused, with who, whom, when and why', async () => {
    const admin = await loginAs(t.app, demo.adminUser);
    const adminId = await userIdOf(t.database.db, demo.adminUser.username);
    const key = crypto.randomUUID();
    const demote = () =>
      caller(t.app, admin)(benutzer.setUserRole, {
        params: { id: adminId },
        body: { role: 'mitarbeiter' },
        key,
      });
    const refused = await demote();
    expect(refused.statusCode).toBe(400);
    await demote(); // a repeat of the same key is the same attempt: no second row
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail', 'request_key'])
      .where('action', '=', 'user.role')
      .execute();
    expect(rows).toEqual([
      {
        user_id: adminId,
        action: 'user.role',
        subject: demo.adminUser.username,
        detail: { to: 'mitarbeiter', outcome: 'refused', reason: refused.json().message },
        request_key: key,
      },
    ]);
    const still = await t.database.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', adminId)
      .executeTakeFirst();
    expect(still?.role).toBe('admin');
  });
});
