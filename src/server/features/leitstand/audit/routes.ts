import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/audit.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

export function auditRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.auditList, async ({ query }, { db }) => service.auditList(db, query));
}
