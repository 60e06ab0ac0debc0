import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hashToken } from './secrets.ts';

/**
 * Integration tokens: long-lived secrets another system (ERP, BI) uses for the export API. Made and revoked
 * by an operator with `npm run token`; the token is shown once and only its SHA-256 is stored.
 */
type Db = Kysely<Database>;

/** `lsi_` marks it as a Lagerscanner integration token (secret scanners, log readers), then 32 random bytes. */
const PREFIX = 'lsi_';
export const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** last_used_at is written at most once a minute per token, so an export page stays a read. */
const TOUCH_AFTER_SECONDS = 60;

export interface IntegrationTokenInfo {
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export class TokenNameTaken extends Error {}

export async function createIntegrationToken(db: Db, name: string): Promise<string> {
  if (!TOKEN_NAME.test(name)) throw new Error(`invalid token name "${name}"`);
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const inserted = await db
    .insertInto('integration_tokens')
    .values({ name, token_hash: hashToken(token) })
    .onConflict((oc) => oc.column('name').where('revoked_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw new TokenNameTaken(name);
  return token;
}

export async function listIntegrationTokens(db: Db): Promise<IntegrationTokenInfo[]> {
  const rows = await db
    .selectFrom('integration_tokens')
    .select(['name', 'created_at', 'last_used_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  }));
}

/** Revokes the live token of that name; false if there is none. */
export async function revokeIntegrationToken(db: Db, name: string): Promise<boolean> {
  const result = await db
    .updateTable('integration_tokens')
    .set({ revoked_at: sql`now()` })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether this is a live integration token (no side effect): to tell it apart from a bad login. */
export async function findLiveIntegrationToken(db: Db, token: string): Promise<boolean> {
  if (!token.startsWith(PREFIX)) return false;
  const row = await db
    .selectFrom('integration_tokens')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The live integration token with that secret, by name, or null. Notes its use (at most once a minute). */
export async function checkIntegrationToken(
  db: Db,
  token: string,
): Promise<{ id: number; name: string } | null> {
  if (!token.startsWith(PREFIX)) return null;
  const row = await db
    .selectFrom('integration_tokens')
    .select([
      'id',
      'name',
      sql<boolean>`last_used_at is null or last_used_at < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS})`.as(
        'stale',
      ),
    ])
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  if (row.stale) {
    await db
      .updateTable('integration_tokens')
      .set({ last_used_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
  }
  return { id: row.id, name: row.name };
}
