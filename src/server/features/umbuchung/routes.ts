import type { FastifyInstance } from 'fastify';
import {
  articleInfo,
  checkLpArticle,
  locationContent,
  moveArticle,
  moveLocation,
} from '../../../contract/umbuchung.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import {
  artikelInfo,
  artikelUmlagern,
  bestandAufLagerplatz,
  lagerplatzInhalt,
  lagerplatzUmbuchen,
} from './service.ts';

export function umbuchungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, checkLpArticle, ({ params }, { db }) =>
    bestandAufLagerplatz(db, params.lpId, params.articleId),
  );
  registerEndpoint(app, deps, articleInfo, ({ params }, { db }) => artikelInfo(db, params.articleId));
  registerEndpoint(app, deps, locationContent, ({ params }, { db }) => lagerplatzInhalt(db, params.lpId));
  registerEndpoint(app, deps, moveArticle, async ({ body }, { db, user, requestKey }) => {
    await artikelUmlagern(db, { ...body, userId: user.id, requestKey });
    return { success: true as const };
  });
  registerEndpoint(app, deps, moveLocation, ({ body }, { db, user, requestKey }) =>
    lagerplatzUmbuchen(db, { ...body, userId: user.id, requestKey }),
  );
}
