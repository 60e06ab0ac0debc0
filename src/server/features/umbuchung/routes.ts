import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/umbuchung.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function umbuchungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.checkLpArticle, ({ params }, { db }) =>
    service.checkLpArticle(db, params.lpId, params.articleId),
  );
  registerEndpoint(app, deps, contract.articleInfo, ({ params }, { db }) =>
    service.articleInfo(db, params.articleId),
  );
  registerEndpoint(app, deps, contract.locationContent, ({ params }, { db }) =>
    service.locationContent(db, params.lpId),
  );
  registerEndpoint(app, deps, contract.moveArticle, async ({ body }, { db, user, requestKey }) => {
    // SPEC's `article` is the glossary's articleId (decision 32).
    const { from, to, article: articleId, amount } = body;
    await service.moveArticle(db, { from, to, articleId, amount, userId: user.id, requestKey });
    return { success: true as const };
  });
  registerEndpoint(app, deps, contract.moveLocation, ({ body }, { db, user, requestKey }) =>
    service.moveLocation(db, { ...body, userId: user.id, requestKey }),
  );
}
