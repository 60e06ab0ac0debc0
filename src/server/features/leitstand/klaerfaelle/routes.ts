import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/klaerfaelle.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

/** Klärfälle in the Leitstand (issue 20.2, decision 20). */
export function klaerfaelleRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.klaerfaelleList, async ({ query }, { db }) => ({
    data: await service.klaerfaelleList(db, query.tage ?? contract.KLAERFAELLE_DAYS.standard),
  }));
  registerEndpoint(app, deps, contract.klaerfallErledigt, ({ params, body }, { db, user, requestKey }) =>
    service.klaerfallErledigt(db, {
      klaerfallId: params.klaerfallId,
      kommentar: body.kommentar,
      userId: user.id,
      requestKey,
    }),
  );
  registerEndpoint(app, deps, contract.klaerfallZurueck, ({ params }, { db, user, requestKey }) =>
    service.klaerfallZurueck(db, { klaerfallId: params.klaerfallId, userId: user.id, requestKey }),
  );
}
