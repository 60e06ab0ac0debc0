import { sql } from 'kysely';
import { hashCardSecret, hashPassword, verifyPassword } from '../../auth/secrets.ts';
import { chunks, type Db, type ImportKind, refuseDuplicates, summary } from '../framework.ts';
import { because } from '../messages.ts';

interface UserRow {
  name: string;
  username: string | null;
  password: string | null;
  card: string | null;
  active: boolean;
}

interface StoredUser {
  id: number;
  name: string;
  username: string | null;
  password_hash: string | null;
  card_secret_hash: string | null;
  active: boolean;
}

const MIN_PASSWORD = 8;
const MIN_CARD = 8;

/**
 * Users by Benutzername (case-insensitive, as the login compares it), or by their card when they have no
 * Benutzername. Passwort and Karte are stored only as the login's hashes (auth/secrets.ts); an
 * empty cell keeps what is stored, so a file without secrets can rename or deactivate people.
 */
export const users: ImportKind<UserRow> = {
  name: 'users',
  columns: [
    {
      key: 'name',
      header: 'Name',
      aliases: ['Mitarbeiter', 'Mitarbeitername', 'Vollständiger Name'],
      required: true,
    },
    { key: 'username', header: 'Benutzername', aliases: ['Benutzer', 'Login', 'Anmeldename'] },
    { key: 'password', header: 'Passwort', aliases: ['Kennwort'] },
    { key: 'card', header: 'Karte', aliases: ['Kartentext', 'Kartennummer', 'Ausweis'] },
    { key: 'active', header: 'Aktiv', aliases: ['aktiviert'] },
  ],
  read(r) {
    const name = r.text('name', { required: true, max: 200, fold: true });
    const username = r.text('username', { max: 200 });
    // Secrets are taken exactly as written (a space may be part of a password).
    const password = r.untrimmed('password') === '' ? null : r.untrimmed('password');
    const card = r.text('card', { max: 1000 });
    const active = r.boolean('active', true);
    if (password !== null && password.length < MIN_PASSWORD)
      r.refuse('password', because('tooShort', { min: MIN_PASSWORD }));
    if (password !== null && !username) r.refuse('password', because('passwordNeedsUsername', {}));
    if (card && card.length < MIN_CARD) r.refuse('card', because('tooShort', { min: MIN_CARD }));
    if (username === null && !card) r.refuse('username', because('noUsernameNoCard', {}));
    if (!name || username === undefined || card === undefined || active === undefined) return undefined;
    return {
      name,
      username,
      password,
      card,
      active,
    };
  },
  async check(ctx, rows) {
    refuseDuplicates(
      ctx,
      rows.filter((r) => r.row.username),
      (u) => (u.username ?? '').toLowerCase(),
      'username',
      'Benutzername',
    );
    refuseDuplicates(
      ctx,
      rows.filter((r) => r.row.card),
      (u) => u.card ?? '',
      'card',
      'Karte',
    );
    const { byUsername, byCard } = await storedUsers(
      ctx.trx,
      rows.map((r) => r.row),
    );
    for (const { line, row } of rows) {
      const target = row.username
        ? byUsername.get(row.username.toLowerCase())
        : row.card
          ? byCard.get(hashCardSecret(row.card))
          : undefined;
      const cardOwner = row.card ? byCard.get(hashCardSecret(row.card)) : undefined;
      if (cardOwner && cardOwner.id !== target?.id) {
        ctx.refuse(line, 'card', because('cardTaken', { name: cardOwner.name }));
      }
      if (!target && !row.password && !row.card && row.active) {
        ctx.refuse(line, 'password', because('noLoginWay', {}));
      }
    }
  },
  async write(ctx, rows) {
    const { byUsername, byCard } = await storedUsers(
      ctx.trx,
      rows.map((r) => r.row),
    );
    const storedOf = (row: UserRow) =>
      row.username
        ? byUsername.get(row.username.toLowerCase())
        : row.card
          ? byCard.get(hashCardSecret(row.card))
          : undefined;
    // scrypt is slow on purpose (≈ 50 ms): run as many as libuv's thread pool does at once (4).
    ctx.progress.start('passwords', rows.length);
    const passwordHashes = await mapInParallel(rows, 4, async ({ row }, done) => {
      const stored = storedOf(row);
      ctx.progress.update(done);
      if (row.password === null) return stored?.password_hash ?? null;
      // The same password again keeps the stored hash (a new salt would change the row for nothing).
      if (stored?.password_hash && (await verifyPassword(row.password, stored.password_hash))) {
        return stored.password_hash;
      }
      return hashPassword(row.password);
    });
    ctx.progress.done();

    const counts = { inserted: 0, updated: 0, total: rows.length };
    ctx.progress.start('writing', rows.length);
    for (const [i, { row }] of rows.entries()) {
      const cardHash = row.card ? hashCardSecret(row.card) : null;
      const stored = storedOf(row);
      const passwordHash = passwordHashes[i] ?? null;
      const next = {
        name: row.name,
        username: row.username ?? stored?.username ?? null,
        password_hash: passwordHash,
        card_secret_hash: cardHash ?? stored?.card_secret_hash ?? null,
        active: ctx.present.has('active') ? row.active : (stored?.active ?? true),
      };
      if (!stored) {
        await ctx.trx.insertInto('users').values(next).execute();
        counts.inserted++;
      } else if (
        stored.name !== next.name ||
        stored.username !== next.username ||
        stored.password_hash !== next.password_hash ||
        stored.card_secret_hash !== next.card_secret_hash ||
        stored.active !== next.active
      ) {
        await ctx.trx.updateTable('users').set(next).where('id', '=', stored.id).execute();
        counts.updated++;
      }
      ctx.progress.update(i + 1);
    }
    ctx.progress.done();
    return [summary('users', counts)];
  },
};

async function storedUsers(db: Db, rows: UserRow[]) {
  const byUsername = new Map<string, StoredUser>();
  const byCard = new Map<string, StoredUser>();
  const usernames = rows.flatMap((r) => (r.username ? [r.username.toLowerCase()] : []));
  const cards = rows.flatMap((r) => (r.card ? [hashCardSecret(r.card)] : []));
  for (const part of chunks(usernames, 5000)) {
    const found = await db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'password_hash', 'card_secret_hash', 'active'])
      .where(sql<string>`lower(username)`, '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const u of found) byUsername.set((u.username ?? '').toLowerCase(), u);
  }
  for (const part of chunks(cards, 5000)) {
    const found = await db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'password_hash', 'card_secret_hash', 'active'])
      .where('card_secret_hash', '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const u of found) if (u.card_secret_hash) byCard.set(u.card_secret_hash, u);
  }
  return { byUsername, byCard };
}

/** `work` over the items, at most `limit` at a time, results in the items' order. */
async function mapInParallel<T, R>(
  items: T[],
  limit: number,
  work: (item: T, done: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, done);
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
