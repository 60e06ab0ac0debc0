import type { Kysely } from 'kysely';
import type { AuditAction } from '../../contract/leitstand/audit.ts';
import type { Database } from '../db/schema.ts';

/** One write of the Leitstand, as its audit list shows it. */
export interface AuditEntry {
  userId: number;
  /** A stable English key: 'klaerfall.erledigt', 'user.role', 'token.create', 'import.articles', … (each with
   * its German label in auditTexts.actions, which the type insists on). */
  action: AuditAction;
  /** What it was done to, as staff name it: a delivery note number, a username, a file name. */
  subject: string;
  /** What changed, for the reader (never a secret: no password, card text or token). */
  detail?: Record<string, unknown>;
  /** The call's X-Idempotency-Key (RouteContext.requestKey), so a replay is visibly the same write. */
  requestKey: string | null;
}

/**
 * Journals a Leitstand write with who, what and when. Call it with the route's `db`: inside the
 * exactly-once transaction, so the entry exists exactly when the write does.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      user_id: entry.userId,
      action: entry.action,
      subject: entry.subject,
      detail: JSON.stringify(entry.detail ?? {}) as unknown as Record<string, unknown>,
      request_key: entry.requestKey,
    })
    .execute();
}
