import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import * as contract from '../../../contract/wareneingang.ts';
import { invalid } from '../../domain/errors.ts';
import {
  admissionKind,
  type Deps,
  durabilityOf,
  registerEndpoint,
  requireIntegration,
} from '../../http/route.ts';
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
  registerEndpoint(app, deps, contract.receiptByNumber, ({ params }, { db }) =>
    service.receiptByNumber(db, params.wareneingang),
  );
  registerEndpoint(app, deps, contract.suggestLocation, ({ params, query }, { db }) =>
    service.suggestLocation(db, params.position, query.charge),
  );
  registerEndpoint(app, deps, contract.bookReceipt, ({ body }, { db, user, requestKey }) =>
    service.bookReceipt(db, { ...body, userId: user.id, requestKey }),
  );
  registerEndpoint(app, deps, contract.closeReceipt, ({ body }, { db, user }) =>
    service.closeReceipt(db, { wareneingang: body.wareneingang, userId: user.id }),
  );

  // The ERP pushes one receipt: integration tokens only (a scanner login gets 403), English messages. The
  // ERP is the back office: its push waits behind the handhelds in the admission gate (DESIGN §10).
  const push = contract.pushReceipt;
  const kind = deps.admission.kind(admissionKind(push));
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const integration = await requireIntegration(deps, request);
    const params = parse(push.params, request.params ?? {}, 'number');
    const body = parse(push.body, request.body ?? undefined, 'body');
    const answer = await service.pushReceipt(deps.db, params.number, body);
    const checked = push.response.parse(answer);
    request.log.info({ integration: integration.name, receipt: params.number }, 'receipt pushed');
    if (checked.created || Object.values(checked.lines).some((n) => n > 0)) deps.changes.publish(push.name);
    return reply.send(checked);
  };
  app.route({
    method: push.method,
    url: push.path,
    handler: (request, reply) =>
      deps.admission.run(
        () => serve(request, reply),
        request.raw.socket,
        kind,
        'backOffice',
        durabilityOf(request),
      ),
  });
}
