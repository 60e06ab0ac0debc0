import type { FastifyInstance } from 'fastify';
import { bookWmsRetoure, wmsItem, wmsStorage } from '../../../contract/wmsretoure.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { ladungstraeger, retoureBuchen, wmsArtikel } from './service.ts';

export function wmsretoureRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, wmsItem, ({ params }, { db }) => wmsArtikel(db, params.article));
  registerEndpoint(app, deps, wmsStorage, ({ params }, { db }) => ladungstraeger(db, params.lhm));
  registerEndpoint(app, deps, bookWmsRetoure, ({ body }, { db, user, requestKey }) =>
    retoureBuchen(db, { ...body, userId: user.id, requestKey }),
  );
}
