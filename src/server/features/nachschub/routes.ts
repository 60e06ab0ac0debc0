import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/nachschub.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function nachschubRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.replenishmentList, async (_input, { db }) => ({
    data: await service.replenishmentList(db),
  }));
}
