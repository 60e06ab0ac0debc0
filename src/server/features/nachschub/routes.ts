import type { FastifyInstance } from 'fastify';
import { replenishmentList } from '../../../contract/nachschub.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { nachschubListe } from './service.ts';

export function nachschubRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, replenishmentList, async (_input, { db }) => ({
    data: await nachschubListe(db),
  }));
}
