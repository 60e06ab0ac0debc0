import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AusweisBody, LabelQuery } from '../../../contract/etiketten.ts';
import * as contract from '../../../contract/etiketten.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { registerDownload, registerSteppedWrite } from '../../http/stepped-route.ts';
import * as files from './label-files.ts';
import * as printers from './printers.ts';

/**
 * GET /api/etiketten/{kind}.pdf|.zpl and the admins' badge file (POST, the card texts in the body). A file is
 * no JSON answer, so registerDownload: the same login and role check and the same German refusals, all
 * before the first byte; then the labels stream out as they are drawn, a step at a time behind the floor
 * (label-files.ts).
 */
export function etikettenRoutes(app: FastifyInstance, deps: Deps): void {
  // A printer named both in PRINTERS and in the admin's list: the server does not start (issue 39).
  app.addHook('onReady', async () => {
    const clash = await printers.printerNameClash(deps.db, deps.config.printers);
    if (clash) throw new printers.PrinterNameClash(clash);
  });
  for (const kind of contract.CODE_KINDS) {
    for (const format of ['pdf', 'zpl'] as const) {
      registerDownload(
        app,
        deps,
        contract.labelDownloads[kind][format],
        async ({ query }, { user, steps, request, reply, heavy }) => {
          const file = await files.labelFile(
            steps,
            deps.db,
            kind,
            format,
            query as LabelQuery,
            heavy,
            (error) => request.log.error({ err: error }, 'label pdf failed'),
          );
          request.log.info({ user: user.id, kind, format, size: file.size, labels: file.count }, 'labels');
          return send(reply, file);
        },
        { heavy: false },
      );
    }
  }

  registerDownload(
    app,
    deps,
    contract.ausweisDatei,
    async ({ body }, { user, steps, request, reply }) => {
      const file = await files.ausweisDatei(steps, deps.db, user, body as AusweisBody, (error) =>
        request.log.error({ err: error }, 'label pdf failed'),
      );
      // Never the card texts in the log: who printed how many.
      request.log.info({ user: user.id, kind: 'ausweis', labels: file.count }, 'labels');
      return send(reply, file);
    },
    { heavy: false },
  );

  registerEndpoint(app, deps, contract.druckerListe, async (_, ctx) => ({
    success: true as const,
    drucker: (await printers.allPrinters(ctx.db, ctx.config.printers)).map(
      ({ name, dpi, groesse, quelle }) => ({
        name,
        dpi,
        groesse,
        quelle,
      }),
    ),
  }));

  // Printing: exactly once per key, but the printer is asked outside any database transaction, so a printer
  // that does not answer holds up no other request (registerSteppedWrite). Every print job is in the
  // Protokoll, printed or refused (a repeat of the key is the same job).
  registerSteppedWrite(
    app,
    deps,
    contract.drucken,
    ({ body }, { user, steps, heavy }) => files.drucken(steps, deps.db, deps.config, user, body, heavy),
    {
      waitMs: contract.PRINT_TIMEOUT_MS + 1000,
      stillRunning: contract.etikettenTexts.printRunning,
      audit: ({ body }, outcome) => ({
        action: 'print.job',
        subject: body.printer,
        detail: outcome.refused
          ? { kind: body.kind, outcome: 'refused', reason: outcome.body.message }
          : { kind: body.kind, labels: outcome.body.etiketten, outcome: 'done' },
      }),
    },
  );

  registerEndpoint(app, deps, contract.adminDrucker, async (_, ctx) => ({
    success: true as const,
    drucker: (await printers.allPrinters(ctx.db, ctx.config.printers)).map(printers.adminRow),
  }));
  registerEndpoint(app, deps, contract.druckerAnlegen, async ({ body }, ctx) => {
    const id = await printers.druckerAnlegen(ctx.db, ctx.config.printers, ctx.config.printerRules, body, {
      userId: ctx.user.id,
      requestKey: ctx.requestKey,
    });
    return { success: true as const, message: contract.etikettenTexts.printerSaved(body.name), id };
  });
  registerEndpoint(app, deps, contract.druckerAendern, async ({ params, body }, ctx) => {
    await printers.druckerAendern(ctx.db, ctx.config.printers, ctx.config.printerRules, params.id, body, {
      userId: ctx.user.id,
      requestKey: ctx.requestKey,
    });
    return {
      success: true as const,
      message: contract.etikettenTexts.printerSaved(body.name),
      id: params.id,
    };
  });
  registerEndpoint(app, deps, contract.druckerEntfernen, async ({ params }, ctx) => {
    const name = await printers.druckerEntfernen(ctx.db, params.id, {
      userId: ctx.user.id,
      requestKey: ctx.requestKey,
    });
    return { success: true as const, message: contract.etikettenTexts.printerRemoved(name) };
  });
}

/** A label file as a download: its bytes stream out as they are drawn. */
function send(reply: FastifyReply, file: files.LabelDownload): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('x-labels', String(file.count))
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);
}
