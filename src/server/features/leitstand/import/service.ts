import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { benutzerTexts } from '../../../../contract/leitstand/benutzer.ts';
import { importTexts, type runImport as runImportCall } from '../../../../contract/leitstand/import.ts';
import type { Database } from '../../../db/schema.ts';
import { invalid, notFound } from '../../../domain/errors.ts';
import { decodeCsv } from '../../../import/encoding.ts';
import { isKindName, KINDS } from '../../../import/kinds/index.ts';
import { summaryInEnglish } from '../../../import/messages.ts';
import { importCsv } from '../../../import/run.ts';
import { type AuditEntry, recordAudit } from '../../../repositories/audit.repository.ts';

/**
 * Leitstand › Import: a CSV uploaded while the server runs, through the engine of `npm run import`
 * (src/server/import/): the same encodings, checks and all-or-nothing rule, in the call's exactly-once
 * transaction — a repeat of the upload imports nothing twice. No `--skip-bad` and no `--images` here: a
 * refused line refuses the file; pictures are copied by the CLI only.
 */
type Db = Kysely<Database>;

/** Who does it, for the audit list. */
export type Actor = Pick<AuditEntry, 'userId' | 'requestKey'>;

type Report = z.input<(typeof runImportCall)['response']>;

/** The JSON around the file's base64 (its name, the keys) gets this much of the body limit. */
const ENVELOPE_BYTES = 4096;

/** The largest file an upload body of `limitBytes` carries: base64 writes 4 characters for 3 bytes. */
export function maxFileBytes(limitBytes: number): number {
  return Math.max(0, Math.floor((limitBytes - ENVELOPE_BYTES) / 4) * 3);
}

export function importKinds(limitBytes: number) {
  return {
    kinds: Object.entries(KINDS).map(([name, kind]) => ({
      name,
      columns: kind.columns.map((c) => ({ header: c.header, required: c.required === true })),
    })),
    maxFileBytes: maxFileBytes(limitBytes),
  };
}

export async function runImport(
  db: Db,
  actor: Actor,
  imagesDir: string,
  kind: string,
  file: { fileName: string; content: string },
): Promise<Report> {
  if (!isKindName(kind)) throw notFound(importTexts.refusals.unknownKind(kind));
  const decoded = decodeCsv(Buffer.from(file.content, 'base64'));
  if (!decoded.ok) throw invalid(importTexts.refusals.encoding);
  const report = await importCsv(db, kind, decoded.text, { imagesDir });
  if (report.committed) {
    // A users file may deactivate people: like the user page, it must leave an admin who can log in.
    if (kind === 'users' && !(await anActiveAdmin(db))) throw invalid(benutzerTexts.refusals.lastAdmin);
    await recordAudit(db, {
      ...actor,
      action: `import.${kind}`,
      subject: file.fileName,
      detail: { kind, rows: report.rows, written: report.written, encoding: decoded.encoding },
    });
  }
  return {
    imported: report.committed,
    encoding: decoded.encoding,
    rows: report.rows,
    written: report.written,
    refusedRows: report.refusedRows,
    fileRefused: report.fileRefused,
    lineErrors: report.refused,
    ignoredColumns: report.ignoredColumns,
    summary: report.summaryLines.map((line) => ({ ...line, text: summaryInEnglish(line) })),
  };
}

async function anActiveAdmin(db: Db): Promise<boolean> {
  const admin = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('active', '=', true)
    .limit(1)
    .executeTakeFirst();
  return admin !== undefined;
}
