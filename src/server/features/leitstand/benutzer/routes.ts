import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/benutzer.ts';
import { type Deps, type RouteContext, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

const actor = (ctx: RouteContext<true>): service.Actor => ({
  userId: ctx.user.id,
  requestKey: ctx.requestKey,
});

/** A repeat of a call that answered a new card's text gets the answer without it (never stored in clear). */
const withoutCardText = <T extends { cardText: string | null }>(answer: T): T => ({
  ...answer,
  cardText: null,
});

export function benutzerRoutes(app: FastifyInstance, deps: Deps): void {
  const idle = deps.config.sessionIdleMinutes;
  registerEndpoint(app, deps, contract.users, async (_input, { db }) => ({
    users: await service.users(db, idle),
  }));
  registerEndpoint(
    app,
    deps,
    contract.createUser,
    async ({ body }, ctx) => service.createUser(ctx.db, idle, actor(ctx), body),
    { storedAnswer: withoutCardText },
  );
  // A refused change of a role or of who is active (the last admin above all) is journalled too.
  registerEndpoint(
    app,
    deps,
    contract.setUserRole,
    async ({ params, body }, ctx) => ({
      user: await service.setUserRole(ctx.db, idle, actor(ctx), params.id, body.role),
    }),
    {
      auditRefusal: async ({ params, body }, db) => ({
        action: 'user.role',
        subject: await service.auditSubject(db, params.id),
        detail: { to: body.role },
      }),
    },
  );
  registerEndpoint(app, deps, contract.setUserLanguage, async ({ params, body }, ctx) => {
    const user = await service.setUserLanguage(ctx.db, idle, actor(ctx), params.id, body.language);
    // The user's logins on this instance answer in it from their next call on (another one: within its
    // session cache's time), as when they choose it themselves in Einstellungen.
    deps.sessions.changeLanguage(user.id, user.language);
    return { user };
  });
  registerEndpoint(app, deps, contract.setUserPassword, async ({ params, body }, ctx) =>
    service.setUserPassword(ctx.db, idle, actor(ctx), params.id, body.password),
  );
  registerEndpoint(
    app,
    deps,
    contract.setUserActive,
    async ({ params, body }, ctx) => service.setUserActive(ctx.db, idle, actor(ctx), params.id, body.active),
    {
      auditRefusal: async ({ params, body }, db) => ({
        action: body.active ? 'user.activate' : 'user.deactivate',
        subject: await service.auditSubject(db, params.id),
        detail: {},
      }),
    },
  );
  registerEndpoint(
    app,
    deps,
    contract.newUserCard,
    async ({ params }, ctx) => service.newUserCard(ctx.db, idle, actor(ctx), params.id),
    { storedAnswer: withoutCardText },
  );
}
