import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/nachschub.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

/** Replenishment minimums in the Leitstand (issue 20.5). */
export function nachschubRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.nachschubMinima, async ({ query }, { db }) => ({
    data: await service.nachschubMinima(db, query.suche ?? ''),
  }));
  registerEndpoint(app, deps, contract.nachschubMinimumSetzen, ({ body }, { db, user, requestKey }) =>
    service.nachschubMinimumSetzen(db, {
      locationCode: body.lagerplatz,
      articleCode: body.artikel,
      minimum: body.minimum,
      userId: user.id,
      requestKey,
    }),
  );
}
