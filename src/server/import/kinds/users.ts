import { sql } from 'kysely';
import { isLanguage, type Language, languageCodes } from '../../../contract/i18n/languages.ts';
import { hashCardSecret, hashPassword, verifyPassword } from '../../auth/secrets.ts';
import { chunks, type Db, type ImportKind, LeavesNoAdmin, refuseDuplicates, summary } from '../framework.ts';
import { because } from '../messages.ts';

interface UserRow {
  name: string;
  username: string | null;
  /** The Passwort as written, until `prepare` replaced it by its hash (never staged in clear). */
  password: string | null;
  /** The hash to store for the file's Passwort (set by `prepare`); null: the file has none. */
  passwordHash: string | null;
  /** The Karte's hash (its text is never kept); null: the file has none. */
  cardHash: string | null;
  active: boolean;
  /** The handheld's language (decision 35); null: the file has none (a stored user keeps theirs, a new one: de). */
  language: Language | null;
}

interface StoredUser {
  id: number;
  name: string;
  username: string | null;
  password_hash: string | null;
  card_secret_hash: string | null;
  active: boolean;
  role: string;
  language: Language;
}

const MIN_PASSWORD = 8;
const MIN_CARD = 8;
/** `memo` key: ids of the active admins the file's rows switch off (the Leitstand keeps one, decision 21). */
const SWITCHED_OFF_ADMINS = 'users.switchedOffAdmins';

const hasPassword = (row: UserRow) => row.password !== null || row.passwordHash !== null;

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
    { key: 'language', header: 'Sprache', aliases: ['Language'] },
  ],
  read(r) {
    const name = r.text('name', { required: true, max: 200, fold: true });
    const username = r.text('username', { max: 200 });
    // Secrets are taken exactly as written (a space may be part of a password).
    const password = r.untrimmed('password') === '' ? null : r.untrimmed('password');
    const card = r.text('card', { max: 1000 });
    const active = r.boolean('active', true);
    // A language by its code, as an ERP or a spreadsheet writes it ('pl', 'PL').
    const languageText = r.text('language', { max: 20 });
    const language = languageText ? languageText.toLowerCase() : null;
    if (languageText && !isLanguage(language))
      r.refuse(
        'language',
        because('unknownLanguage', { value: languageText, languages: languageCodes.join(', ') }),
      );
    if (password !== null && password.length < MIN_PASSWORD)
      r.refuse('password', because('tooShort', { min: MIN_PASSWORD }));
    if (password !== null && !username) r.refuse('password', because('passwordNeedsUsername', {}));
    if (card && card.length < MIN_CARD) r.refuse('card', because('tooShort', { min: MIN_CARD }));
    if (username === null && !card) r.refuse('username', because('noUsernameNoCard', {}));
    if (
      !name ||
      username === undefined ||
      card === undefined ||
      active === undefined ||
      languageText === undefined ||
      (language !== null && !isLanguage(language))
    )
      return undefined;
    return {
      name,
      username,
      password,
      passwordHash: null,
      cardHash: card ? hashCardSecret(card) : null,
      active,
      language,
    };
  },
  unit: (u) => (u.username ? `u:${u.username.toLowerCase()}` : `c:${u.cardHash ?? ''}`),
  inFile(ctx, rows) {
    refuseDuplicates(
      ctx,
      rows.filter((r) => r.row.username),
      (u) => (u.username ?? '').toLowerCase(),
      'username',
      'Benutzername',
    );
    refuseDuplicates(
      ctx,
      rows.filter((r) => r.row.cardHash),
      (u) => u.cardHash ?? '',
      'card',
      'Karte',
    );
  },
  async check(ctx, rows) {
    const { byUsername, byCard } = await storedUsers(
      ctx.trx,
      rows.map((r) => r.row),
    );
    const switchedOff: { line: number; id: number }[] = [];
    for (const { line, row } of rows) {
      const target = storedOf(row, byUsername, byCard);
      const cardOwner = row.cardHash ? byCard.get(row.cardHash) : undefined;
      if (cardOwner && cardOwner.id !== target?.id) {
        ctx.refuse(line, 'card', because('cardTaken', { name: cardOwner.name }));
      }
      if (!target && !hasPassword(row) && !row.cardHash && row.active) {
        ctx.refuse(line, 'password', because('noLoginWay', {}));
      }
      if (target?.role === 'admin' && target.active && ctx.present.has('active') && !row.active)
        switchedOff.push({ line, id: target.id });
    }
    if (!ctx.keepAnAdmin || switchedOff.length === 0) return;
    if (ctx.phase === 'check') {
      // Whether any admin stays is the whole file's question (afterCheck).
      const sofar = (ctx.memo.get(SWITCHED_OFF_ADMINS) as Set<number> | undefined) ?? new Set<number>();
      for (const { id } of switchedOff) sofar.add(id);
      ctx.memo.set(SWITCHED_OFF_ADMINS, sofar);
      return;
    }
    // Writing: the active admins locked, as the user page locks them, so that two changes at once cannot
    // both switch off the last. Someone switched the others off since the check: these rows are refused.
    const admins = await activeAdmins(ctx.trx, true);
    const staying = admins.filter((id) => !switchedOff.some((s) => s.id === id));
    if (staying.length === 0)
      for (const { line } of switchedOff) ctx.refuse(line, 'active', because('lastActiveAdmin', {}));
  },
  async afterCheck(ctx) {
    const switchedOff = ctx.memo.get(SWITCHED_OFF_ADMINS) as Set<number> | undefined;
    if (!ctx.keepAnAdmin || !switchedOff) return;
    const admins = await activeAdmins(ctx.trx, false);
    if (admins.every((id) => switchedOff.has(id))) throw new LeavesNoAdmin();
  },
  async prepare(ctx, rows) {
    const { byUsername, byCard } = await ctx.read((db) =>
      storedUsers(
        db,
        rows.map((r) => r.row),
      ),
    );
    // scrypt is slow on purpose (≈ 50 ms) and runs on libuv's thread pool: as many at once as it has (4).
    return mapInParallel(rows, 4, async ({ line, row }) => {
      if (row.password === null) return { line, row };
      const stored = storedOf(row, byUsername, byCard);
      // The same password again keeps the stored hash (a new salt would change the row for nothing).
      const same = stored?.password_hash && (await verifyPassword(row.password, stored.password_hash));
      const passwordHash =
        same && stored?.password_hash ? stored.password_hash : await hashPassword(row.password);
      return { line, row: { ...row, password: null, passwordHash } };
    });
  },
  async write(ctx, rows) {
    const { byUsername, byCard } = await storedUsers(
      ctx.trx,
      rows.map((r) => r.row),
    );
    const counts = { inserted: 0, updated: 0, total: rows.length };
    for (const { row } of rows) {
      if (row.password !== null) throw new Error('users: a password is written only as its hash (prepare)');
      const stored = storedOf(row, byUsername, byCard);
      const next = {
        name: row.name,
        username: row.username ?? stored?.username ?? null,
        password_hash: row.passwordHash ?? stored?.password_hash ?? null,
        card_secret_hash: row.cardHash ?? stored?.card_secret_hash ?? null,
        active: ctx.present.has('active') ? row.active : (stored?.active ?? true),
        language: row.language ?? stored?.language ?? 'de',
      };
      if (!stored) {
        await ctx.trx.insertInto('users').values(next).execute();
        counts.inserted++;
      } else if (
        stored.name !== next.name ||
        stored.username !== next.username ||
        stored.password_hash !== next.password_hash ||
        stored.card_secret_hash !== next.card_secret_hash ||
        stored.active !== next.active ||
        stored.language !== next.language
      ) {
        await ctx.trx.updateTable('users').set(next).where('id', '=', stored.id).execute();
        counts.updated++;
      }
    }
    return [summary('users', counts)];
  },
};

function storedOf(
  row: UserRow,
  byUsername: Map<string, StoredUser>,
  byCard: Map<string, StoredUser>,
): StoredUser | undefined {
  if (row.username) return byUsername.get(row.username.toLowerCase());
  return row.cardHash ? byCard.get(row.cardHash) : undefined;
}

/** Ids of the active admins; `lock`: locked in id order (the user page locks them the same way). */
async function activeAdmins(db: Db, lock: boolean): Promise<number[]> {
  const query = db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('active', '=', true)
    .orderBy('id');
  return (await (lock ? query.forUpdate() : query).execute()).map((u) => u.id);
}

async function storedUsers(db: Db, rows: UserRow[]) {
  const byUsername = new Map<string, StoredUser>();
  const byCard = new Map<string, StoredUser>();
  const usernames = rows.flatMap((r) => (r.username ? [r.username.toLowerCase()] : []));
  const cards = rows.flatMap((r) => (r.cardHash ? [r.cardHash] : []));
  for (const part of chunks(usernames, 5000)) {
    const found = await db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'password_hash', 'card_secret_hash', 'active', 'role', 'language'])
      .where(sql<string>`lower(username)`, '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const u of found) byUsername.set((u.username ?? '').toLowerCase(), u);
  }
  for (const part of chunks(cards, 5000)) {
    const found = await db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'password_hash', 'card_secret_hash', 'active', 'role', 'language'])
      .where('card_secret_hash', '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const u of found) if (u.card_secret_hash) byCard.set(u.card_secret_hash, u);
  }
  return { byUsername, byCard };
}

/** `work` over the items, at most `limit` at a time, results in the items' order. */
async function mapInParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
