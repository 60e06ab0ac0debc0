import type { FastifyInstance } from 'fastify';
import { bookInventur, findArticle, findLp, inventurHistory } from '../../../contract/inventur.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { artikelFinden, inventurBuchen, inventurVerlauf, lagerplatzFinden } from './service.ts';

export function inventurRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, findArticle, ({ params }, { db }) => artikelFinden(db, params.number));
  registerEndpoint(app, deps, findLp, ({ params }, { db }) => lagerplatzFinden(db, params.code));
  registerEndpoint(app, deps, bookInventur, async ({ body }, { db, user, requestKey }) => {
    await inventurBuchen(db, { ...body, userId: user.id, requestKey });
    return { success: true as const };
  });
  registerEndpoint(app, deps, inventurHistory, async (_input, { db, user }) => ({
    data: await inventurVerlauf(db, user.id),
  }));
}
