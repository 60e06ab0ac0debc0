import type { Kysely } from 'kysely';
import { schnittstellenTexts, type TokenRow } from '../../../../contract/leitstand/schnittstellen.ts';
import * as tokens from '../../../auth/integration-tokens.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, invalid, notFound } from '../../../domain/errors.ts';
import { type AuditEntry, recordAudit } from '../../../repositories/audit.repository.ts';

/**
 * Leitstand › Schnittstellen: the export API's integration tokens (src/server/auth/integration-tokens.ts,
 * as `npm run token`) for an admin in the browser. A new token is answered once and journalled without it.
 */
type Db = Kysely<Database>;

/** Who does it, for the audit list. */
export type Actor = Pick<AuditEntry, 'userId' | 'requestKey'>;

const refusals = schnittstellenTexts.refusals;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function integrationTokens(db: Db): Promise<TokenRow[]> {
  return (await tokens.listIntegrationTokens(db)).map((t) => ({
    name: t.name,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: iso(t.lastUsedAt),
    revokedAt: iso(t.revokedAt),
  }));
}

export async function createIntegrationToken(
  db: Db,
  actor: Actor,
  name: string,
): Promise<{ name: string; token: string }> {
  if (!tokens.TOKEN_NAME.test(name)) throw invalid(refusals.nameInvalid);
  let token: string;
  try {
    token = await tokens.createIntegrationToken(db, name);
  } catch (error) {
    if (error instanceof tokens.TokenNameTaken) throw conflict(refusals.nameTaken(name));
    throw error;
  }
  await recordAudit(db, { ...actor, action: 'token.create', subject: name });
  return { name, token };
}

export async function revokeIntegrationToken(db: Db, actor: Actor, name: string): Promise<{ name: string }> {
  if (!(await tokens.revokeIntegrationToken(db, name))) throw notFound(refusals.unknown(name));
  await recordAudit(db, { ...actor, action: 'token.revoke', subject: name });
  return { name };
}
