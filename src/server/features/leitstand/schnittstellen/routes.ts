import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/schnittstellen.ts';
import { type Deps, type RouteContext, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

const actor = (ctx: RouteContext<true>): service.Actor => ({
  userId: ctx.user.id,
  requestKey: ctx.requestKey,
});

export function schnittstellenRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.integrationTokens, async (_input, { db }) => ({
    tokens: await service.integrationTokens(db),
  }));
  registerEndpoint(
    app,
    deps,
    contract.createIntegrationToken,
    async ({ body }, ctx) => service.createIntegrationToken(ctx.db, actor(ctx), body.name),
    // A repeat of the call answers without the token: only its hash is ever stored.
    { storedAnswer: (answer) => ({ ...answer, token: null }) },
  );
  registerEndpoint(app, deps, contract.revokeIntegrationToken, async ({ body }, ctx) =>
    service.revokeIntegrationToken(ctx.db, actor(ctx), body.name),
  );
}
