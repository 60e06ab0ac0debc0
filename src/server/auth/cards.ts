import type { Kysely } from 'kysely';
import type { Language } from '../../contract/i18n/languages.ts';
import type { Role } from '../../contract/roles.ts';
import type { Database } from '../db/schema.ts';
import { hashCardSecret } from './secrets.ts';

/**
 * The active user a scanned card text belongs to, or null — for an unknown card and for a deactivated
 * user's alike, so no answer tells the two apart. Every call that checks a card text (the card login, the
 * batch hand-over) uses this and counts its attempts against the card limits (decision 14); the other card
 * lookups are the operator's CLI and import.
 */
export async function cardOwner(
  db: Kysely<Database>,
  card: string,
): Promise<{ id: number; name: string; role: Role; language: Language } | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'role', 'language'])
    .where('card_secret_hash', '=', hashCardSecret(card.trim()))
    .where('active', '=', true)
    .executeTakeFirst();
  return user ?? null;
}
