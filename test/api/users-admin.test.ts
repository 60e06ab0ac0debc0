import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCard, loginPassword } from '../../src/contract/auth.ts';
import { inventurHistory } from '../../src/contract/inventur.ts';
import { packageContentCheat } from '../../src/contract/paketinhalt.ts';
import { texts } from '../../src/contract/texts.ts';
import {
  AdminError,
  activateUser,
  assignCard,
  createUser,
  deactivateUser,
  listUsers,
  newCardText,
  setPassword,
  setRole,
} from '../../src/server/auth/users.ts';
import { demo } from '../../src/server/seed/demo.ts';
import { loginDemo, startTestApp, type TestApp } from '../support/app.ts';
import { databaseKinds } from '../support/db.ts';
import { caller } from '../support/endpoint-call.ts';

describe.each(databaseKinds())('user administration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const login = (body: Record<string, string>) => caller(t.app, null)(loginPassword, { body });
  const cardLogin = (card: string) => caller(t.app, null)(loginCard, { body: { stechuhrdevice: card } });
  const history = (token: string) => caller(t.app, token)(inventurHistory);
  const refused = (work: Promise<unknown>) =>
    work.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(AdminError);
        return (error as Error).message;
      },
    );

  it('gives a user a role that their open logins get at the next call', async () => {
    await createUser(t.database.db, {
      username: 'lead1',
      name: 'Lea Lead',
      password: 'Lager-2026!',
      role: 'schichtleitung',
    });
    const token = (await login({ username: 'lead1', password: 'Lager-2026!' })).json().token as string;
    // The packing station's cheat call needs a shift lead; no code is configured here, so a lead hears "wrong code".
    const cheat = () => caller(t.app, token)(packageContentCheat, { body: { id: 1, code: 'RATEN' } });
    expect((await cheat()).json().message).toBe(texts.paketinhalt.cheatRefused);
    expect(await setRole(t.database.db, 'lead1', 'mitarbeiter')).toBe(
      'lead1 (Lea Lead) is mitarbeiter now (was schichtleitung).',
    );
    const refused = await cheat();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(texts.errors.role.schichtleitung);
    expect((await history(token)).statusCode).toBe(200);
  });

  it('creates a user who logs in with the password and with the card; the name greets them', async () => {
    const card = newCardText();
    const { message } = await createUser(t.database.db, {
      username: 'mmueller',
      name: 'Maria Müller',
      password: 'Lager-2026!',
      cardText: card,
    });
    expect(message).toMatch(
      /^Created mmueller \(Maria Müller\), #\d+, mitarbeiter, logs in with password and card\.$/,
    );
    const byPassword = await login({ username: 'mmueller', password: 'Lager-2026!' });
    expect(byPassword.statusCode).toBe(200);
    expect(byPassword.json().name).toBe('Maria Müller');
    expect((await cardLogin(card)).statusCode).toBe(200);
    // Only hashes are stored.
    const row = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'mmueller')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('Lager-2026!');
    expect(JSON.stringify(row)).not.toContain(card);
  });

  it('refuses what would leave a broken or clashing user, and writes nothing then', async () => {
    const before = await t.database.db.selectFrom('users').select('id').execute();
    expect(
      await refused(createUser(t.database.db, { username: 'x y', name: 'X', password: 'longenough' })),
    ).toContain('without spaces');
    expect(await refused(createUser(t.database.db, { username: 'kurz', name: 'K', password: 'short' }))).toBe(
      'A password needs at least 8 characters.',
    );
    expect(await refused(createUser(t.database.db, { username: 'leer', name: 'Leer' }))).toBe(
      'A user needs a password, a card or both, or they cannot log in.',
    );
    expect(
      await refused(createUser(t.database.db, { username: 'demo', name: 'D', password: 'longenough' })),
    ).toBe('The username "demo" is taken.');
    const holder = await cardHolder();
    expect(
      await refused(
        createUser(t.database.db, { username: 'dieb', name: 'Dieb', cardText: demo.cardUser.card }),
      ),
    ).toBe(`This card already belongs to ${holder} (Karten Nutzer). Take it from them first.`);
    expect(await refused(setPassword(t.database.db, 'niemand', 'longenough'))).toContain(
      'No user "niemand".',
    );
    expect(await t.database.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });

  async function cardHolder(): Promise<string> {
    const row = await t.database.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('name', '=', demo.cardUser.name)
      .executeTakeFirstOrThrow();
    return row.username ?? `#${row.id}`;
  }

  it('a new password ends the logins made with the old one; the old password no longer works', async () => {
    await createUser(t.database.db, { username: 'pwuser', name: 'PW', password: 'erstes-pw' });
    const token = (await login({ username: 'pwuser', password: 'erstes-pw' })).json().token as string;
    expect((await history(token)).statusCode).toBe(200);
    expect(await setPassword(t.database.db, 'pwuser', 'zweites-pw')).toBe(
      'New password for pwuser (PW); 1 login(s) ended.',
    );
    expect((await history(token)).statusCode).toBe(401);
    expect((await login({ username: 'pwuser', password: 'erstes-pw' })).statusCode).toBe(401);
    expect((await login({ username: 'pwuser', password: 'zweites-pw' })).statusCode).toBe(200);
  });

  it('a replaced card logs in; the old card does not', async () => {
    await createUser(t.database.db, {
      username: 'kartler',
      name: 'Kartler',
      cardText: 'ALTE-KARTE-0123456789',
    });
    expect((await cardLogin('ALTE-KARTE-0123456789')).statusCode).toBe(200);
    expect(await assignCard(t.database.db, `#${await idOf('kartler')}`, 'NEUE-KARTE-0123456789')).toBe(
      'Card of kartler (Kartler) set; any earlier card of theirs no longer logs in.',
    );
    expect((await cardLogin('ALTE-KARTE-0123456789')).statusCode).toBe(401);
    expect((await cardLogin('NEUE-KARTE-0123456789')).statusCode).toBe(200);
    expect(await refused(assignCard(t.database.db, 'kartler', 'zu-kurz'))).toContain('at least 8 characters');
  });

  async function idOf(username: string): Promise<number> {
    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('deactivating ends every open login at once and refuses new ones; activating lets them in again', async () => {
    const first = await loginDemo(t.app);
    const second = await loginDemo(t.app);
    expect((await history(first)).statusCode).toBe(200);
    expect(await deactivateUser(t.database.db, 'demo')).toBe(
      'demo (Demo Nutzer) deactivated; 2 login(s) ended.',
    );
    expect((await history(first)).statusCode).toBe(401);
    expect((await history(second)).statusCode).toBe(401);
    expect((await login({ username: 'demo', password: 'demo' })).statusCode).toBe(401);
    const listed = (await listUsers(t.database.db, 30)).find((u) => u.username === 'demo');
    expect(listed).toMatchObject({ active: false, hasPassword: true, liveSessions: 0 });

    expect(await activateUser(t.database.db, 'demo')).toBe('demo (Demo Nutzer) can log in again.');
    expect((await login({ username: 'demo', password: 'demo' })).statusCode).toBe(200);
    expect((await listUsers(t.database.db, 30)).find((u) => u.username === 'demo')?.liveSessions).toBe(1);
  });

  it('new card texts are long, random and free of characters scanner layouts mix up', () => {
    const cards = new Set(Array.from({ length: 200 }, newCardText));
    expect(cards.size).toBe(200);
    for (const card of cards) expect(card).toMatch(/^[A-HJ-NP-X2-9]{40}$/);
  });
});
