import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/zollwagen.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

/** Customs carts in the Leitstand (issue 20.4). */
export function zollwagenRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.zollwagenList, async ({ query }, { db }) => ({
    data: await service.zollwagenList(db, query.tage ?? contract.ZOLLWAGEN_DAYS.standard),
  }));
  registerEndpoint(app, deps, contract.zollwagenAbschliessen, ({ params }, { db, user, requestKey }) =>
    service.zollwagenAbschliessen(db, { cartId: params.id, userId: user.id, requestKey }),
  );
}
