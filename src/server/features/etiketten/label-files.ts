import { PassThrough, Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  type AusweisBody,
  type CodeKind,
  type Dpi,
  type DruckBody,
  etikettenTexts,
  HANDHELD_KINDS,
  HANDHELD_MAX,
  type LabelKind,
  type LabelQuery,
  type LabelSize,
  MAX_PRINT,
} from '../../../contract/etiketten.ts';
import { hasRole } from '../../../contract/roles.ts';
import type { AuthUser } from '../../auth/sessions.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { DomainError, forbidden, invalid } from '../../domain/errors.ts';
import { StepSize, type Steps } from '../../http/back-office.ts';
import { recordAudit } from '../../repositories/audit.repository.ts';
import type { Label } from './label.ts';
import { writePdf } from './pdf.ts';
import { printerNamed, sendJob } from './printers.ts';
import { renderedInWorker } from './rendered.ts';
import { checkFormat, defaultSize, type PreparedLabels, prepareLabels } from './service.ts';
import { zplLabel } from './zpl.ts';

/**
 * The label files and print jobs (decision 23): which labels, who may have them, how they are drawn — a step
 * at a time behind the floor (DESIGN §10). The routes only check the caller and answer.
 */

type Db = Kysely<Database>;

/**
 * More labels than this in one file or print job make it a heavy operation: at most HEAVY_OPERATIONS_MAX run
 * at once (DESIGN §10). A badge or a shelf's few labels never wait for a colleague's 20,000.
 */
export const HEAVY_LABELS = 100;

export interface LabelFile {
  kind: LabelKind;
  format: 'pdf' | 'zpl';
  size: LabelSize;
  dpi: Dpi;
}

/** A file ready to stream: its content type, its name for the browser, its bytes as they are drawn. */
export interface LabelDownload {
  count: number;
  size: LabelSize;
  contentType: string;
  fileName: string;
  body: Readable;
}

/**
 * The labels of one kind as a PDF or ZPL file, checked before the first byte (a German 400/404). More than
 * HEAVY_LABELS make it a heavy operation (`heavy`, which may refuse with 503).
 */
export async function labelFile(
  steps: Steps,
  db: Db,
  kind: CodeKind,
  format: 'pdf' | 'zpl',
  query: LabelQuery,
  heavy: () => void,
  onError: (error: unknown) => void,
): Promise<LabelDownload> {
  const size = query.groesse ?? defaultSize(format);
  checkFormat(format, size, query.dpi as Dpi | undefined);
  const prepared = await prepareLabels(steps, db, { kind, ...query }, size);
  if (prepared.count > HEAVY_LABELS) heavy();
  return download(steps, prepared, { kind, format, size, dpi: (query.dpi ?? 203) as Dpi }, onError);
}

/**
 * The admin's badge file (the card texts in the body, never in a URL). A badge carries a login (its card as
 * a QR code): every render is in the Protokoll — who, how many, which format, rendered or refused — never
 * the card texts.
 */
export async function ausweisDatei(
  steps: Steps,
  db: Db,
  user: AuthUser,
  body: AusweisBody,
  onError: (error: unknown) => void,
): Promise<LabelDownload> {
  const size = body.groesse ?? defaultSize(body.format);
  checkFormat(body.format, size, body.format === 'zpl' ? undefined : body.dpi);
  const audit = (detail: Record<string, unknown>) =>
    steps.run(() =>
      recordAudit(db, {
        userId: user.id,
        action: 'print.badge',
        subject: body.format.toUpperCase(),
        detail: { format: body.format, ...detail },
        requestKey: null,
      }),
    );
  let prepared: PreparedLabels;
  try {
    prepared = await prepareLabels(steps, db, { kind: 'ausweis', codes: body.karten }, size);
  } catch (error) {
    if (error instanceof DomainError) await audit({ outcome: 'refused', reason: error.message });
    throw error;
  }
  await audit({ labels: prepared.count, outcome: 'done' });
  return download(
    steps,
    prepared,
    { kind: 'ausweis', format: body.format, size, dpi: body.dpi ?? 203 },
    onError,
  );
}

/**
 * One print job: who may print what (a worker: a location, LHM or cart label, a few at once; the shift lead:
 * also articles and ranges; badges: the admin), the labels in the printer's size and resolution as ZPL, sent
 * as one job.
 */
export async function drucken(
  steps: Steps,
  db: Db,
  config: Pick<Config, 'printers' | 'printerRules'>,
  user: AuthUser,
  body: DruckBody,
  heavy: () => void,
) {
  if (body.kind === 'ausweis' && !hasRole(user.role, 'admin')) throw forbidden(etikettenTexts.ausweisAdmin);
  const lead = hasRole(user.role, 'schichtleitung');
  if (!lead && !(HANDHELD_KINDS as readonly string[]).includes(body.kind))
    throw forbidden(body.kind === 'artikel' ? etikettenTexts.artikelLeitstand : etikettenTexts.handheldKinds);
  const printer = await steps.run(() => printerNamed(db, config.printers, body.printer));
  const prepared = await prepareLabels(steps, db, body, printer.groesse);
  if (!lead && prepared.count > HANDHELD_MAX) throw invalid(etikettenTexts.handheldMax);
  if (prepared.count > MAX_PRINT) throw invalid(etikettenTexts.printTooMany);
  if (prepared.count > HEAVY_LABELS) heavy();
  const file = { size: printer.groesse, dpi: printer.dpi };
  let job = '';
  if (prepared.count > HEAVY_LABELS) {
    const bytes: Buffer[] = [];
    for await (const chunk of renderedInWorker(prepared, { format: 'zpl', ...file, title: '' }))
      bytes.push(chunk);
    job = Buffer.concat(bytes).toString('utf8');
  } else for await (const chunk of zplStream(steps, prepared, file)) job += chunk;
  await sendJob(printer, job, config.printerRules);
  return {
    success: true as const,
    message: etikettenTexts.printed(prepared.count, printer.name),
    etiketten: prepared.count,
  };
}

/**
 * The labels as a file: PDF page by page, ZPL label by label — more than HEAVY_LABELS drawn in a worker
 * thread (rendered.ts), the few of a shelf or a badge here, a step at a time (a worker takes 50–300 ms to
 * start). A failure mid-way ends the download (`onError` is told, for the log).
 */
function download(
  steps: Steps,
  prepared: PreparedLabels,
  file: LabelFile,
  onError: (error: unknown) => void,
): LabelDownload {
  const name = `etiketten-${file.kind}`;
  const title = `${etikettenTexts.title}: ${etikettenTexts.kinds[file.kind]}`;
  if (prepared.count > HEAVY_LABELS) {
    const body = renderedInWorker(prepared, { format: file.format, size: file.size, dpi: file.dpi, title });
    body.once('error', onError);
    return {
      count: prepared.count,
      size: file.size,
      contentType: file.format === 'zpl' ? 'text/plain; charset=utf-8' : 'application/pdf',
      fileName: `${name}.${file.format}`,
      body,
    };
  }
  if (file.format === 'zpl')
    return {
      count: prepared.count,
      size: file.size,
      contentType: 'text/plain; charset=utf-8',
      fileName: `${name}.zpl`,
      body: Readable.from(zplStream(steps, prepared, file)),
    };
  const out = new PassThrough();
  writePdf(steps, prepared.labels(), file.size, out, title).catch((error: unknown) => {
    onError(error);
    out.destroy(error as Error);
  });
  return {
    count: prepared.count,
    size: file.size,
    contentType: 'application/pdf',
    fileName: `${name}.pdf`,
    body: out,
  };
}

/**
 * The most labels written as ZPL in one step. A step holds as many as fit its time on the thread
 * (`StepSize`): a label costs 0.15 ms here — its barcode's modules are worked out to size it — so a fixed
 * 128 a step held the thread 19 ms, against the 5 ms a back-office step may. The first step writes a few,
 * while the code is still cold (0.5 ms a label).
 */
const ZPL_LABELS_MAX_PER_STEP = 256;

/** ZPL for the labels, one ^XA…^XZ each, a step's worth at a time (sized by the time it holds the thread). */
export async function* zplStream(
  steps: Steps,
  prepared: PreparedLabels,
  file: Pick<LabelFile, 'size' | 'dpi'>,
): AsyncGenerator<string> {
  const size = new StepSize({ max: ZPL_LABELS_MAX_PER_STEP, start: 4, min: 1 });
  let batch: Label[] = [];
  const write = async (labels: Label[]) => {
    const step = await steps.run(() =>
      size.timed(async () => ({
        rows: labels.length,
        zpl: labels.map((label) => zplLabel(label, file.size, file.dpi)).join(''),
      })),
    );
    return step.zpl;
  };
  // Labels are taken from `prepared` between the steps: its pages are read in steps of their own.
  for await (const label of prepared.labels()) {
    batch.push(label);
    if (batch.length >= size.rows) {
      yield await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield await write(batch);
}
