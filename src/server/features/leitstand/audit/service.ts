import { type Kysely, sql } from 'kysely';
import { AUDIT_PAGE, type AuditEntry, auditTexts } from '../../../../contract/leitstand/audit.ts';
import type { Database } from '../../../db/schema.ts';
import { invalid } from '../../../domain/errors.ts';

/**
 * Leitstand › Protokoll: the audit list, newest first, a page at a time. Keyset paging on (at, id) — the
 * index audit_log_at_idx — so a page costs the same at the start and a million entries in. The cursor
 * carries the last entry's time to the microsecond (a JavaScript Date keeps only milliseconds, and two
 * writes in one millisecond must not be skipped or shown twice).
 */
type Db = Kysely<Database>;

interface Position {
  /** UTC, microseconds: 2026-11-24T10:00:00.123456 */
  at: string;
  id: number;
}

function encodeCursor(position: Position): string {
  return Buffer.from(`${position.at}|${position.id}`).toString('base64url');
}

function decodeCursor(cursor: string): Position | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6})\|([1-9]\d{0,17})$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  return match?.[1] && match[2] ? { at: match[1], id: Number(match[2]) } : null;
}

export async function auditList(
  db: Db,
  query: { before?: string; limit?: number },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const size = query.limit ?? AUDIT_PAGE;
  let select = db
    .selectFrom('audit_log as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.at',
      'a.action',
      'a.subject',
      'a.detail',
      'u.id as userId',
      'u.name as userName',
      'u.username',
      sql<string>`to_char(a.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`.as('position'),
    ])
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(size + 1);
  if (query.before !== undefined) {
    const after = decodeCursor(query.before);
    if (!after) throw invalid(auditTexts.badCursor);
    select = select.where(
      sql<boolean>`(a.at, a.id) < (${after.at}::timestamp at time zone 'UTC', ${after.id})`,
    );
  }
  const rows = await select.execute();
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({
      id: Number(r.id),
      at: r.at.toISOString(),
      user: { id: r.userId, name: r.userName, username: r.username },
      action: r.action,
      subject: r.subject,
      detail: r.detail,
    })),
    next: rows.length > size && last ? encodeCursor({ at: last.position, id: Number(last.id) }) : null,
  };
}
