import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/paketausgang.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function paketausgangRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.paketausgang, ({ body }, { db, user }) =>
    service.paketausgang(db, { tracking: body.tracking, userId: user.id }),
  );
  registerEndpoint(app, deps, contract.paketausgangCompare, ({ body }, { db, user }) =>
    service.paketausgangCompare(db, { tracking: body.tracking, belegnr: body.belegnr, userId: user.id }),
  );
}
