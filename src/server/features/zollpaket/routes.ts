import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/zollpaket.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function zollpaketRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.checkWagen, (_input, { db }) => service.checkWagen(db));
  registerEndpoint(app, deps, contract.findWagen, ({ params }, { db, user }) =>
    service.findWagen(db, { wagennummer: params.wagennummer, userId: user.id }),
  );
  registerEndpoint(app, deps, contract.zollPaket, ({ body }, { db, user }) =>
    service.zollPaket(db, { ...body, userId: user.id }),
  );
  registerEndpoint(app, deps, contract.zollHistory, (_input, { db }) => service.zollHistory(db));
}
