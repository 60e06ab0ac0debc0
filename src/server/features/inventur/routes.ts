import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/inventur.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function inventurRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.bookInventur, async ({ body }, { db, user, requestKey }) => {
    // SPEC's wire names (`lp`, `article`) become the glossary's once, here (decision 32).
    const { lp: locationId, article: articleId, amount } = body;
    await service.bookInventur(db, { locationId, articleId, amount, userId: user.id, requestKey });
    return { success: true as const };
  });
  registerEndpoint(app, deps, contract.inventurHistory, async (_input, { db, user }) => ({
    data: await service.inventurHistory(db, user.id),
  }));
}
