import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import * as contract from '../../../contract/wareneingang.ts';
import { invalid } from '../../domain/errors.ts';
import { type Deps, registerEndpoint, registerIntegrationEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

/** Input of the integration call, or 400 naming the field as the JSON has it (English, for integrators). */
function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  // The field first (`article in lines.0: …`), so an integrator's log search finds it by its name.
  const last = path.at(-1) ?? where;
  const field = path.length > 1 ? `${last} in ${path.slice(0, -1).join('.')}` : last;
  throw invalid(contract.receiptPushMessages.invalid(field, issue?.message ?? 'invalid'));
}

export function wareneingangRoutes(app: FastifyInstance, deps: Deps): void {
  // The receipt calls' wire names (SPEC-style German, stored in waiting outbox entries) become the glossary's
  // here, once (decision 32): `wareneingang` is the receipt's number, `position` a receipt line's id,
  // `lagerplatz` a location's code as scanned, `mehrmenge` the confirmed surplus; the answer's `beleg` is
  // the receipt.
  registerEndpoint(app, deps, contract.receiptByNumber, ({ params }, { db }) =>
    service.receiptByNumber(db, params.wareneingang),
  );
  registerEndpoint(app, deps, contract.suggestLocation, ({ params, query }, { db }) =>
    service.suggestLocation(db, params.position, query.charge),
  );
  registerEndpoint(app, deps, contract.bookReceipt, async ({ body }, { db, user, requestKey }) => {
    const { message, receipt } = await service.bookReceipt(db, {
      receiptNumber: body.wareneingang,
      lineId: body.position,
      locationCode: body.lagerplatz,
      amount: body.amount,
      charge: body.charge,
      mhd: body.mhd,
      surplusConfirmed: body.mehrmenge,
      userId: user.id,
      requestKey,
    });
    return { success: true as const, message, beleg: receipt };
  });
  registerEndpoint(app, deps, contract.closeReceipt, async ({ body }, { db, user }) => {
    const { message, receipt } = await service.closeReceipt(db, {
      receiptNumber: body.wareneingang,
      userId: user.id,
    });
    return { success: true as const, message, beleg: receipt };
  });

  // The ERP pushes one receipt: integration tokens only (a scanner login gets 403), English messages. The
  // ERP is the back office: its push waits behind the handhelds in the admission gate (DESIGN §10).
  registerIntegrationEndpoint(
    app,
    deps,
    contract.pushReceipt,
    (request) => ({
      params: parse(contract.pushReceipt.params, request.params ?? {}, 'number'),
      body: parse(contract.pushReceipt.body, request.body ?? undefined, 'body'),
    }),
    async ({ params, body }, { db, integration, request, announce }) => {
      const answer = await service.pushReceipt(db, params.number, body);
      request.log.info({ integration: integration.name, receipt: params.number }, 'receipt pushed');
      if (answer.created || Object.values(answer.lines).some((n) => n > 0)) announce();
      return answer;
    },
  );
}
