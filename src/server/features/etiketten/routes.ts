import { PassThrough, Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import {
  type AusweisBody,
  adminDrucker,
  ausweisDatei,
  CODE_KINDS,
  type Dpi,
  type DruckBody,
  drucken,
  druckerAendern,
  druckerAnlegen,
  druckerEntfernen,
  druckerListe,
  etikettenTexts,
  HANDHELD_KINDS,
  HANDHELD_MAX,
  type LabelKind,
  type LabelQuery,
  type LabelSize,
  labelDownloads,
  MAX_PRINT,
  PRINT_TIMEOUT_MS,
} from '../../../contract/etiketten.ts';
import { hasRole } from '../../../contract/roles.ts';
import type { AuthUser } from '../../auth/sessions.ts';
import { DomainError, forbidden, invalid } from '../../domain/errors.ts';
import { type Steps, stepsIn } from '../../http/back-office.ts';
import { applyOnceOutside, parseIdempotencyKey, requestHash } from '../../http/idempotency.ts';
import {
  admissionKind,
  type Deps,
  laneOf,
  loginBeforeBody,
  loginFor,
  parseInput,
  registerDownload,
  registerEndpoint,
} from '../../http/route.ts';
import { recordAudit } from '../../repositories/audit.repository.ts';
import type { Label } from './label.ts';
import { writePdf } from './pdf.ts';
import {
  adminRow,
  allPrinters,
  createPrinter,
  PrinterNameClash,
  printerNameClash,
  printerNamed,
  removePrinter,
  sendJob,
  updatePrinter,
} from './printers.ts';
import { checkFormat, defaultSize, type PreparedLabels, prepareLabels } from './service.ts';
import { zplLabel } from './zpl.ts';

/**
 * More labels than this in one file or print job make it a heavy operation: at most HEAVY_OPERATIONS_MAX run
 * at once (DESIGN §10). A badge or a shelf's few labels never wait for a colleague's 20,000.
 */
export const HEAVY_LABELS = 100;

/**
 * GET /api/etiketten/{kind}.pdf|.zpl and the admins' badge file (POST, the card texts in the body). A file is
 * no JSON answer, so registerDownload: the same login and role check and the same German refusals, all
 * before the first byte; then the labels stream out as they are drawn, a step at a time behind the floor.
 */
export function etikettenRoutes(app: FastifyInstance, deps: Deps): void {
  // A printer named both in PRINTERS and in the admin's list: the server does not start (issue 39).
  app.addHook('onReady', async () => {
    const clash = await printerNameClash(deps.db, deps.config.printers);
    if (clash) throw new PrinterNameClash(clash);
  });
  for (const kind of CODE_KINDS) {
    for (const format of ['pdf', 'zpl'] as const) {
      registerDownload(
        app,
        deps,
        labelDownloads[kind][format],
        async ({ query: raw }, { user, steps, request, reply, heavy }) => {
          const query = raw as LabelQuery;
          const size = query.groesse ?? defaultSize(format);
          checkFormat(format, size, query.dpi as Dpi | undefined);
          const prepared = await prepareLabels(steps, deps.db, { kind, ...query }, size);
          if (prepared.count > HEAVY_LABELS) heavy();
          request.log.info({ user: user.id, kind, format, size, labels: prepared.count }, 'labels');
          return sendLabels(steps, reply, request.log, prepared, {
            kind,
            format,
            size,
            dpi: (query.dpi ?? 203) as Dpi,
          });
        },
        { heavy: false },
      );
    }
  }

  registerDownload(
    app,
    deps,
    ausweisDatei,
    async ({ body: raw }, { user, steps, request, reply }) => {
      const body = raw as AusweisBody;
      const size = body.groesse ?? defaultSize(body.format);
      checkFormat(body.format, size, body.format === 'zpl' ? undefined : body.dpi);
      // A badge carries a login (its card as a QR code): every render is in the Protokoll — who, how many,
      // which format, rendered or refused — never the card texts.
      const audit = (detail: Record<string, unknown>) =>
        steps.run(() =>
          recordAudit(deps.db, {
            userId: user.id,
            action: 'print.badge',
            subject: body.format.toUpperCase(),
            detail: { format: body.format, ...detail },
            requestKey: null,
          }),
        );
      let prepared: PreparedLabels;
      try {
        prepared = await prepareLabels(steps, deps.db, { kind: 'ausweis', codes: body.karten }, size);
      } catch (error) {
        if (error instanceof DomainError) await audit({ outcome: 'refused', reason: error.message });
        throw error;
      }
      await audit({ labels: prepared.count, outcome: 'done' });
      // Never the card texts in the log: who printed how many.
      request.log.info({ user: user.id, kind: 'ausweis', labels: prepared.count }, 'labels');
      return sendLabels(steps, reply, request.log, prepared, {
        kind: 'ausweis',
        format: body.format,
        size,
        dpi: body.dpi ?? 203,
      });
    },
    { heavy: false },
  );

  registerEndpoint(app, deps, druckerListe, async (_, ctx) => ({
    success: true as const,
    drucker: (await allPrinters(ctx.db, ctx.config.printers)).map(({ name, dpi, groesse, quelle }) => ({
      name,
      dpi,
      groesse,
      quelle,
    })),
  }));

  // Printing: exactly once per key, but the printer is asked outside any database transaction
  // (applyOnceOutside), so a printer that does not answer holds up no other request. The login check waits in
  // the admission gate like any call of its sender; the labels are read and written in steps behind the floor.
  const printKind = deps.admission.kind(admissionKind(drucken));
  app.route({
    method: 'POST',
    url: drucken.path,
    onRequest: loginBeforeBody(deps, drucken),
    handler: async (request, reply) => {
      const client = request.raw.socket;
      const { user, body, key } = await deps.admission.run(
        async () => {
          const user = await loginFor(deps, drucken, request);
          const body = parseInput(drucken, drucken.body, request.body ?? undefined) as DruckBody;
          const key = parseIdempotencyKey(request.headers['x-idempotency-key']);
          return { user, body, key };
        },
        client,
        printKind,
        laneOf(drucken),
      );
      const route = `${drucken.method} ${drucken.path}`;
      const claim = { key, userId: user.id, route, hash: requestHash(route, {}, body) };
      const steps = stepsIn(deps.admission, printKind, client);
      let release = () => {};
      const job = () =>
        print(deps, steps, user, body, () => {
          release = deps.heavy.enter();
        }).finally(() => release());
      const outcome = await applyOnceOutside(deps.db, claim, job, {
        waitMs: PRINT_TIMEOUT_MS + 1000,
        stillRunning: etikettenTexts.printRunning,
      });
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      // Every print job in the Protokoll, printed or refused (a repeat of the key is the same job).
      // A step behind the floor, as the job's own reads and writes — also when its client left meanwhile.
      if (!outcome.replayed)
        await deps.admission.step(
          () =>
            recordAudit(deps.db, {
              userId: user.id,
              action: 'print.job',
              subject: body.printer,
              detail: outcome.refused
                ? { kind: body.kind, outcome: 'refused', reason: outcome.body.message }
                : { kind: body.kind, labels: outcome.body.etiketten, outcome: 'done' },
              requestKey: key,
            }),
          printKind,
        );
      if (outcome.refused) {
        request.log.info(
          { status: outcome.status, reason: outcome.body.message, user: user.id },
          'request refused',
        );
        return reply.code(outcome.status).send(outcome.body);
      }
      return reply.send(outcome.body);
    },
  });

  registerEndpoint(app, deps, adminDrucker, async (_, ctx) => ({
    success: true as const,
    drucker: (await allPrinters(ctx.db, ctx.config.printers)).map(adminRow),
  }));
  registerEndpoint(app, deps, druckerAnlegen, async ({ body }, ctx) => {
    const id = await createPrinter(ctx.db, ctx.config.printers, ctx.config.printerRules, body, {
      userId: ctx.user.id,
      requestKey: ctx.requestKey,
    });
    return { success: true as const, message: etikettenTexts.printerSaved(body.name), id };
  });
  registerEndpoint(app, deps, druckerAendern, async ({ params, body }, ctx) => {
    await updatePrinter(ctx.db, ctx.config.printers, ctx.config.printerRules, params.id, body, {
      userId: ctx.user.id,
      requestKey: ctx.requestKey,
    });
    return { success: true as const, message: etikettenTexts.printerSaved(body.name), id: params.id };
  });
  registerEndpoint(app, deps, druckerEntfernen, async ({ params }, ctx) => {
    const name = await removePrinter(ctx.db, params.id, { userId: ctx.user.id, requestKey: ctx.requestKey });
    return { success: true as const, message: etikettenTexts.printerRemoved(name) };
  });
}

/**
 * One print job: who may print what (a worker: a location, LHM or cart label, a few at once; the shift lead:
 * also articles and ranges; badges: the admin), the labels in the printer's size and resolution as ZPL, sent
 * as one job.
 */
async function print(deps: Deps, steps: Steps, user: AuthUser, body: DruckBody, heavy: () => void) {
  if (body.kind === 'ausweis' && !hasRole(user.role, 'admin')) throw forbidden(etikettenTexts.ausweisAdmin);
  const lead = hasRole(user.role, 'schichtleitung');
  if (!lead && !(HANDHELD_KINDS as readonly string[]).includes(body.kind))
    throw forbidden(body.kind === 'artikel' ? etikettenTexts.artikelLeitstand : etikettenTexts.handheldKinds);
  const printer = await steps.run(() => printerNamed(deps.db, deps.config.printers, body.printer));
  const prepared = await prepareLabels(steps, deps.db, body, printer.groesse);
  if (!lead && prepared.count > HANDHELD_MAX) throw invalid(etikettenTexts.handheldMax);
  if (prepared.count > MAX_PRINT) throw invalid(etikettenTexts.printTooMany);
  if (prepared.count > HEAVY_LABELS) heavy();
  let job = '';
  for await (const chunk of zplStream(steps, prepared, { size: printer.groesse, dpi: printer.dpi }))
    job += chunk;
  await sendJob(printer, job, deps.config.printerRules);
  return {
    success: true as const,
    message: etikettenTexts.printed(prepared.count, printer.name),
    etiketten: prepared.count,
  };
}

export interface LabelFile {
  kind: LabelKind;
  format: 'pdf' | 'zpl';
  size: LabelSize;
  dpi: Dpi;
}

/** The labels as a file download: PDF page by page, ZPL label by label; a failure mid-way ends the download. */
function sendLabels(
  steps: Steps,
  reply: FastifyReply,
  log: FastifyBaseLogger,
  prepared: PreparedLabels,
  file: LabelFile,
) {
  const name = `etiketten-${file.kind}`;
  reply.header('cache-control', 'no-store').header('x-labels', String(prepared.count));
  if (file.format === 'zpl') {
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.zpl"`)
      .send(Readable.from(zplStream(steps, prepared, file)));
  }
  const out = new PassThrough();
  writePdf(
    steps,
    prepared.labels(),
    file.size,
    out,
    `${etikettenTexts.title}: ${etikettenTexts.kinds[file.kind]}`,
  ).catch((error: unknown) => {
    log.error({ err: error }, 'label pdf failed');
    out.destroy(error as Error);
  });
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${name}.pdf"`)
    .send(out);
}

/** Labels written as ZPL in one step (about 32 KB of ZPL, a few milliseconds). */
const ZPL_LABELS_PER_STEP = 128;

/** ZPL for the labels, one ^XA…^XZ each, in chunks of ZPL_LABELS_PER_STEP labels, each written in a step. */
export async function* zplStream(
  steps: Steps,
  prepared: PreparedLabels,
  file: Pick<LabelFile, 'size' | 'dpi'>,
): AsyncGenerator<string> {
  let batch: Label[] = [];
  const write = (labels: Label[]) =>
    steps.run(async () => labels.map((label) => zplLabel(label, file.size, file.dpi)).join(''));
  for await (const label of prepared.labels()) {
    batch.push(label);
    if (batch.length >= ZPL_LABELS_PER_STEP) {
      yield await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield await write(batch);
}
