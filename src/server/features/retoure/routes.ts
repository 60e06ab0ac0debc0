import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/retoure.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function retoureRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.retourenerfassung, ({ body }, { db, user }) =>
    service.retourenerfassung(db, { tracking: body.tracking, userId: user.id }),
  );
}
