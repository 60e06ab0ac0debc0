import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/inventur-auswertung.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import {
  registerDownload,
  registerSteppedEndpoint,
  registerSteppedWrite,
} from '../../../http/stepped-route.ts';
import { computeAbc } from './abc.ts';
import { auditListCsv, auditListRows, listFileName, listRange } from './audit-list.ts';
import { writeAuditListPdf } from './audit-list-pdf.ts';
import { abcClasses, updateClass } from './classes.ts';
import { coverage, yearOf } from './coverage.ts';

const T = contract.inventurAuswertungTexts;

/**
 * How long a repeat of 'ABC-Klassen berechnen' waits for its first copy before 409 `running` (ms): on the
 * large warehouse it takes a few seconds in steps behind a busy floor.
 */
const COMPUTE_WAIT_MS = 30_000;

/** Permanente Inventur's numbers in the Leitstand (issue 42): ABC classes, coverage, the Inventurliste. */
export function inventurAuswertungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.abcKlassen, async (_input, { db }) => ({
    data: await abcClasses(db),
  }));

  // In steps behind the floor (counting the journal's window held PGlite 325–600 ms as one statement),
  // exactly once per key outside a transaction; begun, it ends even if its desk is closed (untilDone).
  registerSteppedWrite(
    app,
    deps,
    contract.abcBerechnen,
    async (_input, { user, steps, request }) => {
      // Behind a busy floor its steps may take longer than CONNECTION_TIMEOUT_SECONDS of a silent connection,
      // which is meant for clients that stall (as the import's upload, once its body is in).
      const socket = request.raw.socket as { setTimeout?: (ms: number) => void } | undefined;
      if (typeof socket?.setTimeout === 'function') socket.setTimeout(0);
      const run = await computeAbc(steps, deps.db, user.id, new Date(deps.clock()));
      // The class pages and the plans' pages reload at every write announced.
      deps.changes.publish(contract.abcBerechnen.name);
      return {
        success: true as const,
        message: T.computed(run.locations.A, run.locations.B, run.locations.C),
        lagerplaetze: run.locations,
        artikel: run.articles,
      };
    },
    {
      waitMs: COMPUTE_WAIT_MS,
      stillRunning: T.running,
      audit: (_input, outcome) =>
        outcome.refused
          ? null
          : {
              action: 'abc.compute',
              subject: T.classesTitle,
              detail: {
                lagerplaetze: classes(outcome.body.lagerplaetze),
                artikel: classes(outcome.body.artikel),
              },
            },
      untilDone: true,
    },
  );

  registerEndpoint(app, deps, contract.klasseAendern, ({ body }, { db, user, requestKey }) =>
    updateClass(db, body, { userId: user.id, requestKey }),
  );

  // Reads every location with its stock and the year's counts: in steps, so the handhelds go between them.
  registerSteppedEndpoint(app, deps, contract.abdeckung, async ({ query }, { db, steps }) => ({
    data: await coverage(
      steps,
      db,
      query.jahr ?? yearOf(new Date(deps.clock()), deps.config.timeZone),
      deps.config.timeZone,
    ),
  }));

  // The auditor's list as files: checked before the first byte (a German 400), then a slice per step behind
  // the floor; heavy operations, as the journal's CSV (a year of counts is half a million rows).
  registerDownload(
    app,
    deps,
    contract.inventurlisteCsv,
    async ({ query }, { user, steps, request, reply }) => {
      const range = await steps.run(() => listRange(deps.db, query, deps.config.timeZone));
      request.log.info({ user: user.id, von: range.von, bis: range.bis }, 'inventurliste csv');
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${listFileName(range, 'csv')}"`)
        .send(Readable.from(auditListCsv(steps, deps.db, range, deps.config.timeZone)));
    },
    { heavy: true },
  );
  registerDownload(
    app,
    deps,
    contract.inventurlistePdf,
    async ({ query }, { user, steps, request, reply }) => {
      const range = await steps.run(() => listRange(deps.db, query, deps.config.timeZone));
      const out = new PassThrough();
      const title = T.pdfTitle(range.von, range.bis);
      writeAuditListPdf(steps, auditListRows(steps, deps.db, range), out, title, deps.config.timeZone)
        .then((rows) => request.log.info({ user: user.id, rows }, 'inventurliste pdf'))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'inventurliste pdf failed');
          out.destroy(error as Error);
        });
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${listFileName(range, 'pdf')}"`)
        .send(out);
    },
    { heavy: true },
  );
}

/** 'A 12, B 30, C 400' for the Protokoll. */
const classes = (n: { A: number; B: number; C: number }) => `A ${n.A}, B ${n.B}, C ${n.C}`;
