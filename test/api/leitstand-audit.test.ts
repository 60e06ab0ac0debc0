import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditEntry, auditList, auditTexts } from '../../src/contract/leitstand/audit.ts';
import * as schnittstellen from '../../src/contract/leitstand/schnittstellen.ts';
import { texts } from '../../src/contract/texts.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

type Page = { entries: AuditEntry[]; next: string | null };

describe.each(databaseKinds())('Leitstand › Protokoll (audit list) on %s', (kind) => {
  let t: TestApp;
  let lead: ReturnType<typeof caller>;
  let adminId: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    lead = caller(t.app, await loginAs(t.app, demo.leadUser));
    adminId = await userIdOf(t.database.db, 'admin');
  });
  afterAll(() => t.close());

  it('shows a write of the Leitstand with who, what and when, newest first', async () => {
    const admin = caller(t.app, await loginAs(t.app, demo.adminUser));
    await admin(schnittstellen.createIntegrationToken, { body: { name: 'erp' } });
    await admin(schnittstellen.revokeIntegrationToken, { body: { name: 'erp' } });
    const res = await lead(auditList);
    expect(res.statusCode).toBe(200);
    const { entries, next } = res.json<Page>();
    expect(next).toBeNull();
    expect(entries.map((e) => [e.action, e.subject])).toEqual([
      ['token.revoke', 'erp'],
      ['token.create', 'erp'],
    ]);
    expect(entries[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      user: { id: adminId, name: demo.adminUser.name, username: 'admin' },
      action: 'token.revoke',
      subject: 'erp',
      detail: {},
    });
    expect(Date.now() - Date.parse(entries[0]?.at ?? '')).toBeLessThan(60_000);
  });

  it('pages newest first without skipping or repeating, also entries within one millisecond', async () => {
    // 25 entries: five per millisecond, microseconds apart; and five at the very same moment.
    await sql`insert into audit_log (at, user_id, action, subject)
      select timestamptz '2026-11-20 10:00:00+00' + (i / 5) * interval '1 millisecond' + (i % 5) * interval '1 microsecond',
        ${adminId}, 'test.page', 'e' || i
      from generate_series(0, 24) i`.execute(t.database.db);
    await sql`insert into audit_log (at, user_id, action, subject)
      select timestamptz '2026-11-19 08:00:00+00', ${adminId}, 'test.page', 's' || i from generate_series(0, 4) i`.execute(
      t.database.db,
    );
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const res = await lead(auditList, { query: { limit: '4', ...(before ? { before } : {}) } });
      expect(res.statusCode).toBe(200);
      const page = res.json<Page>();
      seen.push(...page.entries.filter((e) => e.action === 'test.page').map((e) => e.subject));
      if (!page.next) break;
      before = page.next;
    }
    const expected = [
      ...Array.from({ length: 25 }, (_, i) => `e${24 - i}`),
      ...Array.from({ length: 5 }, (_, i) => `s${4 - i}`), // same moment: by id, newest first
    ];
    expect(seen).toEqual(expected);
  });

  it('refuses a made-up cursor and a bad limit in German; a worker gets 403', async () => {
    const bad = await lead(auditList, { query: { before: 'bm9uc2Vuc2U' } });
    expect([bad.statusCode, bad.json().message]).toEqual([400, auditTexts.badCursor]);
    for (const limit of ['0', '201', 'x']) {
      const res = await lead(auditList, { query: { limit } });
      expect([limit, res.statusCode]).toEqual([limit, 400]);
      expect(res.json().message).toMatch(/^[A-ZÄÖÜ].*\.$/); // a German sentence, never zod's English
    }
    const worker = caller(t.app, await loginAs(t.app, demo.passwordUser));
    const refused = await worker(auditList);
    expect([refused.statusCode, refused.json().message]).toEqual([403, texts.errors.role.schichtleitung]);
  });
});
