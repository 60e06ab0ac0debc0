import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCard, loginPassword } from '../../src/contract/auth.ts';
import { languages } from '../../src/contract/i18n/languages.ts';
import { inventurHistory } from '../../src/contract/inventur.ts';
import * as benutzer from '../../src/contract/leitstand/benutzer.ts';
import { texts } from '../../src/contract/texts.ts';
import { receiptByNumber, wareneingangTexts } from '../../src/contract/wareneingang.ts';
import { MIN_PASSWORD_LENGTH } from '../../src/server/auth/users.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginAs, startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

type UserRow = benutzer.UserRow;
const refusals = benutzer.benutzerTexts.refusals;

describe.each(databaseKinds())('Leitstand › Benutzer on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof caller>;
  let adminId: number;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = caller(t.app, await loginAs(t.app, demo.adminUser));
    adminId = await userIdOf(t.database.db, 'admin');
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const login = (username: string, password: string) =>
    caller(t.app, null)(loginPassword, { body: { username, password } });
  const cardLogin = (card: string) => caller(t.app, null)(loginCard, { body: { stechuhrdevice: card } });
  /** A call any login may make, to see whether a token still works. */
  const history = (token: string) => caller(t.app, token)(inventurHistory);
  const auditRows = (subject: string) =>
    db()
      .selectFrom('audit_log')
      .select(['user_id', 'action', 'subject', 'detail', 'request_key', 'at'])
      .where('subject', '=', subject)
      .orderBy('id')
      .execute();
  const userCount = async () =>
    (await db().selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
  const auditCount = async () =>
    (await db().selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow())
      .n;
  const create = (body: Partial<Record<string, unknown>>, key?: string) =>
    admin(benutzer.createUser, {
      body: { role: 'mitarbeiter', password: null, newCard: false, ...body },
      key,
    });

  it('lists every user: name, role, active, password and card, live logins, last seen', async () => {
    const res = await admin(benutzer.users);
    expect(res.statusCode).toBe(200);
    const { users } = res.json<{ users: UserRow[] }>();
    const byName = (name: string) => users.find((u) => u.name === name);
    expect(byName(demo.adminUser.name)).toMatchObject({
      username: 'admin',
      role: 'admin',
      language: 'de',
      active: true,
      hasPassword: true,
      hasCard: false,
      liveSessions: 1,
      lastSeenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(byName(demo.leadUser.name)).toMatchObject({ username: 'leitung', role: 'schichtleitung' });
    // The card-only user of the seed has no username; nobody logged in with it yet.
    expect(byName(demo.cardUser.name)).toMatchObject({
      username: null,
      role: 'mitarbeiter',
      hasPassword: false,
      hasCard: true,
      liveSessions: 0,
      lastSeenAt: null,
    });
  });

  it('refuses every admin call to a shift lead and a worker with 403 in German, writing nothing', async () => {
    for (const user of [demo.leadUser, demo.passwordUser]) {
      const as = caller(t.app, await loginAs(t.app, user));
      const before = await userCount();
      for (const [endpoint, call] of [
        [benutzer.users, {}],
        [
          benutzer.createUser,
          { body: { username: 'x1', name: 'X', role: 'admin', password: 'Lager-2026!', newCard: false } },
        ],
        [benutzer.setUserRole, { params: { id: adminId }, body: { role: 'mitarbeiter' } }],
        [benutzer.setUserLanguage, { params: { id: adminId }, body: { language: 'pl' } }],
        [benutzer.setUserPassword, { params: { id: adminId }, body: { password: 'Lager-2026!' } }],
        [benutzer.setUserActive, { params: { id: adminId }, body: { active: false } }],
        [benutzer.newUserCard, { params: { id: adminId }, body: {} }],
      ] as const) {
        const res = await as(endpoint, call);
        expect([endpoint.name, res.statusCode, res.json()]).toMatchObject([
          endpoint.name,
          403,
          { success: false, message: texts.errors.role.admin },
        ]);
      }
      expect(await userCount()).toBe(before);
    }
    expect(
      (await db().selectFrom('users').select('language').where('id', '=', adminId).executeTakeFirstOrThrow())
        .language,
    ).toBe('de');
  });

  it('creates a user with a password and a new card: the card text is answered once, never stored or journalled', async () => {
    const key = randomUUID();
    const body = {
      username: 'kkraus',
      name: 'Karl Kraus',
      role: 'schichtleitung',
      password: 'Lager-2026!',
      newCard: true,
    };
    const res = await create(body, key);
    expect(res.statusCode).toBe(200);
    const { user, cardText } = res.json<{ user: UserRow; cardText: string }>();
    expect(user).toMatchObject({
      username: 'kkraus',
      name: 'Karl Kraus',
      role: 'schichtleitung',
      language: 'de',
      active: true,
      hasPassword: true,
      hasCard: true,
      liveSessions: 0,
    });
    expect(cardText).toMatch(/^[A-Z2-9]{40}$/);

    // Both ways in work; the card greets the new user by name.
    expect((await login('kkraus', 'Lager-2026!')).statusCode).toBe(200);
    const byCard = await cardLogin(cardText);
    expect(byCard.statusCode).toBe(200);
    expect(byCard.json()).toMatchObject({ name: 'Karl Kraus', role: 'schichtleitung' });

    // The same action again (an answer lost on the way): one user, one audit entry, and no card text.
    const repeat = await create(body, key);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual({ user, cardText: null });
    expect(
      await db().selectFrom('users').select('id').where('username', '=', 'kkraus').execute(),
    ).toHaveLength(1);
    const audit = await auditRows('kkraus');
    expect(audit).toEqual([
      {
        user_id: adminId,
        action: 'user.create',
        subject: 'kkraus',
        detail: { name: 'Karl Kraus', role: 'schichtleitung', language: 'de', password: true, card: true },
        request_key: key,
        at: expect.any(Date),
      },
    ]);
    expect(Date.now() - (audit[0]?.at.getTime() ?? 0)).toBeLessThan(60_000);

    // Nowhere in the database in clear: not in the users, the audit list or the exactly-once store.
    const dump = JSON.stringify([
      await db().selectFrom('users').selectAll().execute(),
      await db().selectFrom('audit_log').selectAll().execute(),
      await db().selectFrom('idempotency').selectAll().execute(),
    ]);
    expect(dump).not.toContain(cardText);
    expect(dump).not.toContain('Lager-2026!');
  });

  it('creates a card-only user, and a worker by password alone', async () => {
    const cardOnly = await create({ username: 'konly', name: 'Karte Only', newCard: true });
    expect(cardOnly.json()).toMatchObject({
      user: { hasPassword: false, hasCard: true, role: 'mitarbeiter' },
    });
    expect((await cardLogin(cardOnly.json().cardText)).statusCode).toBe(200);
    const passwordOnly = await create({ username: 'ponly', name: 'Passwort Only', password: 'Lager-2026!' });
    expect(passwordOnly.json()).toEqual({
      user: expect.objectContaining({ hasPassword: true, hasCard: false }),
      cardText: null,
    });
  });

  it('refuses bad input in German, and writes nothing', async () => {
    const users = await userCount();
    const entries = await auditCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ username: 'mit leerzeichen', name: 'X', password: 'Lager-2026!' }, 400, refusals.usernameInvalid],
      [{ username: '#7', name: 'X', password: 'Lager-2026!' }, 400, refusals.usernameInvalid],
      [{ username: '', name: 'X', password: 'Lager-2026!' }, 400, refusals.usernameInvalid],
      [{ username: 'ok1', name: '   ', password: 'Lager-2026!' }, 400, refusals.nameInvalid],
      [{ username: 'ok1', name: 'X', password: 'kurz' }, 400, refusals.passwordTooShort(MIN_PASSWORD_LENGTH)],
      [{ username: 'ok1', name: 'X' }, 400, refusals.noLoginWay],
      [{ username: 'admin', name: 'X', password: 'Lager-2026!' }, 409, refusals.usernameTaken('admin')],
      [
        { username: 'ok1', name: 'X', password: 'Lager-2026!', role: 'chef' },
        400,
        texts.errors.input.invalid('Rolle'),
      ],
      // A typed name takes no control character; a password only no NUL (the database cannot hold it).
      [
        { username: 'ok1', name: 'X\u0007Y', password: 'Lager-2026!' },
        400,
        texts.errors.input.controlCharacterTyped('Name'),
      ],
      [
        { username: 'ok1', name: 'X', password: 'Lager\u00002026!' },
        400,
        texts.errors.input.controlCharacterTyped('Passwort'),
      ],
      [
        { username: 'x'.repeat(1001), name: 'X', password: 'Lager-2026!' },
        400,
        texts.errors.input.tooLong('Benutzername', 1000),
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      expect([body, res.statusCode, res.json()]).toMatchObject([body, status, { success: false, message }]);
    }
    expect(await userCount()).toBe(users);
    expect(await auditCount()).toBe(entries);
    const unknown = await admin(benutzer.setUserRole, { params: { id: 999_999 }, body: { role: 'admin' } });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, refusals.unknownUser]);
  });

  it('changes a role: the user has it at their next call, journalled from → to', async () => {
    const { user } = (
      await create({ username: 'rolle1', name: 'Rita Rolle', password: 'Lager-2026!' })
    ).json<{
      user: UserRow;
    }>();
    const token = (await login('rolle1', 'Lager-2026!')).json().token as string;
    const lead = caller(t.app, token);
    expect((await lead(benutzer.users)).statusCode).toBe(403);
    const key = randomUUID();
    const res = await admin(benutzer.setUserRole, { params: { id: user.id }, body: { role: 'admin' }, key });
    expect(res.json()).toEqual({
      user: { ...user, role: 'admin', liveSessions: 1, lastSeenAt: expect.any(String) },
    });
    expect((await lead(benutzer.users)).statusCode).toBe(200);
    // Twice the same key: once journalled. The same role again: nothing to journal.
    await admin(benutzer.setUserRole, { params: { id: user.id }, body: { role: 'admin' }, key });
    await admin(benutzer.setUserRole, { params: { id: user.id }, body: { role: 'admin' } });
    expect(await auditRows('rolle1')).toEqual([
      expect.objectContaining({ action: 'user.create' }),
      expect.objectContaining({
        user_id: adminId,
        action: 'user.role',
        detail: { from: 'mitarbeiter', to: 'admin' },
        request_key: key,
      }),
    ]);
  });

  it('creates a user in their language: the card login tells the handheld, the server answers them in it', async () => {
    const res = await create({ username: 'polka', name: 'Ola Polka', language: 'pl', newCard: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { username: 'polka', language: 'pl' } });
    const byCard = await cardLogin(res.json().cardText);
    expect(byCard.json()).toMatchObject({ name: 'Ola Polka', language: 'pl' });
    const refused = await caller(t.app, byCard.json().token)(receiptByNumber, {
      params: { wareneingang: 'WE999997' },
    });
    expect(refused.json()).toMatchObject({
      message: 'Nie znaleziono przyjęcia towaru "WE999997"!',
      code: 'wareneingang.notFound',
    });
    expect((await auditRows('polka'))[0]?.detail).toMatchObject({ language: 'pl' });
  });

  it('changes a language: the user is answered in it at their next call, journalled from → to', async () => {
    const { user } = (
      await create({ username: 'sprache1', name: 'Sara Sprache', password: 'Lager-2026!' })
    ).json<{ user: UserRow }>();
    expect(user.language).toBe('de');
    const worker = caller(t.app, (await login('sprache1', 'Lager-2026!')).json().token as string);
    const unknownReceipt = { params: { wareneingang: 'WE999996' } };
    expect((await worker(receiptByNumber, unknownReceipt)).json().message).toBe(
      wareneingangTexts.notFound('WE999996'),
    );
    const key = randomUUID();
    const res = await admin(benutzer.setUserLanguage, {
      params: { id: user.id },
      body: { language: 'pl' },
      key,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: { ...user, language: 'pl', liveSessions: 1, lastSeenAt: expect.any(String) },
    });
    expect((await worker(receiptByNumber, unknownReceipt)).json().message).toBe(
      'Nie znaleziono przyjęcia towaru "WE999996"!',
    );
    // The list shows it; the same key again and the same language again journal nothing more.
    const listed = (await admin(benutzer.users)).json<{ users: UserRow[] }>().users;
    expect(listed.find((u) => u.id === user.id)?.language).toBe('pl');
    await admin(benutzer.setUserLanguage, { params: { id: user.id }, body: { language: 'pl' }, key });
    await admin(benutzer.setUserLanguage, { params: { id: user.id }, body: { language: 'pl' } });
    expect(await auditRows('sprache1')).toEqual([
      expect.objectContaining({ action: 'user.create' }),
      expect.objectContaining({
        user_id: adminId,
        action: 'user.language',
        detail: { from: 'de', to: 'pl' },
        request_key: key,
      }),
    ]);
  });

  it('offers every language of the handheld, and refuses another one in German, writing nothing', async () => {
    const { user } = (
      await create({ username: 'sprache2', name: 'Sven Sprache', password: 'Lager-2026!' })
    ).json<{ user: UserRow }>();
    for (const { code } of languages) {
      const res = await admin(benutzer.setUserLanguage, {
        params: { id: user.id },
        body: { language: code },
      });
      expect([code, res.statusCode, res.json().user?.language]).toEqual([code, 200, code]);
    }
    await admin(benutzer.setUserLanguage, { params: { id: user.id }, body: { language: 'de' } });
    const users = await userCount();
    const entries = await auditCount();
    for (const language of ['fr', 'DE', '', 'qps', null]) {
      const changed = await admin(benutzer.setUserLanguage, { params: { id: user.id }, body: { language } });
      const created = await create({ username: 'sprache3', name: 'X', password: 'Lager-2026!', language });
      for (const res of [changed, created])
        expect([language, res.statusCode, res.json()]).toMatchObject([
          language,
          400,
          { success: false, message: texts.errors.input.invalid('Sprache') },
        ]);
    }
    expect(await userCount()).toBe(users);
    expect(await auditCount()).toBe(entries);
    const row = await db()
      .selectFrom('users')
      .select('language')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row?.language).toBe('de');
    const unknown = await admin(benutzer.setUserLanguage, {
      params: { id: 999_999 },
      body: { language: 'pl' },
    });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, refusals.unknownUser]);
  });

  it('sets a new password: the old one and every login of the user end', async () => {
    const { user } = (await create({ username: 'pw1', name: 'Paul Wort', password: 'Lager-2026!' })).json<{
      user: UserRow;
    }>();
    const tokens = [
      (await login('pw1', 'Lager-2026!')).json().token as string,
      (await login('pw1', 'Lager-2026!')).json().token as string,
    ];
    const res = await admin(benutzer.setUserPassword, {
      params: { id: user.id },
      body: { password: 'Neu-Lager-2027' },
    });
    expect(res.json()).toMatchObject({ endedLogins: 2, user: { liveSessions: 0 } });
    for (const token of tokens) expect((await history(token)).statusCode).toBe(401);
    expect((await login('pw1', 'Lager-2026!')).statusCode).toBe(401);
    expect((await login('pw1', 'Neu-Lager-2027')).statusCode).toBe(200);
    const short = await admin(benutzer.setUserPassword, {
      params: { id: user.id },
      body: { password: 'kurz' },
    });
    expect([short.statusCode, short.json().message]).toEqual([
      400,
      refusals.passwordTooShort(MIN_PASSWORD_LENGTH),
    ]);
    const audit = await auditRows('pw1');
    expect(audit.map((a) => [a.action, a.detail])).toEqual([
      ['user.create', expect.anything()],
      ['user.password', { endedLogins: 2 }],
    ]);
    expect(JSON.stringify(audit)).not.toContain('Neu-Lager-2027');
  });

  it('deactivates (logins end, no new one) and activates again, each journalled', async () => {
    const { user } = (
      await create({ username: 'aktiv1', name: 'Anna Aktiv', password: 'Lager-2026!' })
    ).json<{
      user: UserRow;
    }>();
    const token = (await login('aktiv1', 'Lager-2026!')).json().token as string;
    const off = await admin(benutzer.setUserActive, { params: { id: user.id }, body: { active: false } });
    expect(off.json()).toMatchObject({ endedLogins: 1, user: { active: false, liveSessions: 0 } });
    expect((await history(token)).statusCode).toBe(401);
    expect((await login('aktiv1', 'Lager-2026!')).statusCode).toBe(401);
    const on = await admin(benutzer.setUserActive, { params: { id: user.id }, body: { active: true } });
    expect(on.json()).toMatchObject({ endedLogins: 0, user: { active: true } });
    expect((await login('aktiv1', 'Lager-2026!')).statusCode).toBe(200);
    expect((await auditRows('aktiv1')).map((a) => [a.action, a.detail])).toEqual([
      ['user.create', expect.anything()],
      ['user.deactivate', { endedLogins: 1 }],
      ['user.activate', {}],
    ]);
  });

  it('gives a new card: the old one stops at once, the new text is answered once', async () => {
    const first = await create({ username: 'karte1', name: 'Kai Karte', newCard: true });
    const { user, cardText: oldCard } = first.json<{ user: UserRow; cardText: string }>();
    const key = randomUUID();
    const res = await admin(benutzer.newUserCard, { params: { id: user.id }, body: {}, key });
    const { cardText } = res.json<{ cardText: string }>();
    expect(cardText).toMatch(/^[A-Z2-9]{40}$/);
    expect(cardText).not.toBe(oldCard);
    expect((await cardLogin(oldCard)).statusCode).toBe(401);
    expect((await cardLogin(cardText)).json()).toMatchObject({ name: 'Kai Karte' });
    const repeat = await admin(benutzer.newUserCard, { params: { id: user.id }, body: {}, key });
    expect(repeat.json()).toMatchObject({ cardText: null });
    expect((await cardLogin(cardText)).statusCode).toBe(200); // the repeat gave no other card
    const audit = await auditRows('karte1');
    expect(audit.map((a) => [a.action, a.request_key])).toEqual([
      ['user.create', expect.any(String)],
      ['user.card', key],
    ]);
    expect(JSON.stringify(audit)).not.toContain(cardText);
  });

  it('keeps the last active admin: no demoting or deactivating them, in German, each refusal journalled as refused', async () => {
    // Earlier tests may have made other admins: back to worker, so the demo admin is the only one.
    const others = await db()
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('id', '<>', adminId)
      .execute();
    for (const { id } of others)
      expect(
        (await admin(benutzer.setUserRole, { params: { id }, body: { role: 'mitarbeiter' } })).statusCode,
      ).toBe(200);
    const entries = await auditCount();
    const me = await admin(benutzer.setUserRole, {
      params: { id: adminId },
      body: { role: 'schichtleitung' },
    });
    expect([me.statusCode, me.json()]).toMatchObject([400, { success: false, message: refusals.lastAdmin }]);
    const off = await admin(benutzer.setUserActive, { params: { id: adminId }, body: { active: false } });
    expect([off.statusCode, off.json().message]).toEqual([400, refusals.lastAdmin]);
    // A second admin who is deactivated does not count.
    const { user: other } = (
      await create({ username: 'admin2', name: 'Zweite Admin', role: 'admin', password: 'Lager-2026!' })
    ).json<{ user: UserRow }>();
    await admin(benutzer.setUserActive, { params: { id: other.id }, body: { active: false } });
    const still = await admin(benutzer.setUserRole, {
      params: { id: adminId },
      body: { role: 'mitarbeiter' },
    });
    expect([still.statusCode, still.json().message]).toEqual([400, refusals.lastAdmin]);
    // admin2 created and deactivated, and the three refusals journalled as refused (issue 39.6).
    expect(await auditCount()).toBe(entries + 5);
    expect(
      (await db().selectFrom('users').select('role').where('id', '=', adminId).executeTakeFirstOrThrow())
        .role,
    ).toBe('admin');

    // With another active admin, either may go — but two admins demoting each other at once leave one.
    await admin(benutzer.setUserActive, { params: { id: other.id }, body: { active: true } });
    const otherAdmin = caller(t.app, (await login('admin2', 'Lager-2026!')).json().token as string);
    const [a, b] = await Promise.all([
      admin(benutzer.setUserRole, { params: { id: other.id }, body: { role: 'mitarbeiter' } }),
      otherAdmin(benutzer.setUserRole, { params: { id: adminId }, body: { role: 'mitarbeiter' } }),
    ]);
    // The loser is refused as the last admin, or — when the winner committed before its role was read —
    // as no admin any more.
    expect([a.statusCode, b.statusCode].filter((s) => s === 200)).toHaveLength(1);
    expect([a.statusCode, b.statusCode].filter((s) => s !== 200)).toEqual([expect.toBeOneOf([400, 403])]);
    const admins = await db()
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'admin')
      .where('active', '=', true)
      .execute();
    expect(admins).toHaveLength(1);
    // Put the demo admin back for whatever runs after.
    if (admins[0]?.username !== 'admin')
      await otherAdmin(benutzer.setUserRole, { params: { id: adminId }, body: { role: 'admin' } });
  });
});
