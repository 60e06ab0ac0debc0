import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Claims on delivery notes being picked (Kommissionierung, decision 25) that another feature ends: a logout
 * lets go of every note its login was picking, so a colleague can take them over at once.
 */
export async function releasePickClaimsOfSession(db: Kysely<Database>, sessionId: number): Promise<void> {
  await db.deleteFrom('pick_claims').where('session_id', '=', sessionId).execute();
}
