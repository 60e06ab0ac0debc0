import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/lookup.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

/** The lookups every scanning screen shares (decision 32); the wire's `number` and `code` are scanned codes. */
export function lookupRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.findArticle, ({ params }, { db }) =>
    service.findArticle(db, params.number),
  );
  registerEndpoint(app, deps, contract.findLp, ({ params }, { db }) => service.findLp(db, params.code));
}
