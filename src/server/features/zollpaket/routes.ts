import type { FastifyInstance } from 'fastify';
import { checkWagen, findWagen, zollHistory, zollPaket } from '../../../contract/zollpaket.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { offenerWagen, paketErfassen, wagenFinden, zollVerlauf } from './service.ts';

export function zollpaketRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, checkWagen, (_input, { db }) => offenerWagen(db));
  registerEndpoint(app, deps, findWagen, ({ params }, { db, user }) =>
    wagenFinden(db, { wagennummer: params.wagennummer, userId: user.id }),
  );
  registerEndpoint(app, deps, zollPaket, ({ body }, { db, user }) =>
    paketErfassen(db, { ...body, userId: user.id }),
  );
  registerEndpoint(app, deps, zollHistory, (_input, { db }) => zollVerlauf(db));
}
