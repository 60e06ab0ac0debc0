import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/wmsretoure.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function wmsretoureRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.wmsItem, ({ params }, { db }) => service.wmsItem(db, params.article));
  registerEndpoint(app, deps, contract.wmsStorage, ({ params }, { db }) =>
    service.wmsStorage(db, params.lhm),
  );
  registerEndpoint(app, deps, contract.bookWmsRetoure, ({ body }, { db, user, requestKey }) => {
    // SPEC's `article` and `lagerplatz` (the LHM's id) in the glossary's words, once (decision 32).
    const { article: articleId, lagerplatz: locationId, ...rest } = body;
    return service.bookWmsRetoure(db, { ...rest, articleId, locationId, userId: user.id, requestKey });
  });
}
