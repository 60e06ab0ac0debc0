import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/auth.ts';
import { texts } from '../../../contract/texts.ts';
import { budgets } from '../../auth/attempt-limits.ts';
import type { Opened } from '../../auth/sessions.ts';
import { type Deps, registerEndpoint, registerPublicEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function authRoutes(app: FastifyInstance, deps: Deps): void {
  /** Logins the cap per user ended are refused here from the next request on, not after the cache time. */
  const forgetEnded = ({ answer, ended }: Opened) => {
    for (const id of ended) deps.sessions.forgetSession(id);
    return answer;
  };
  registerPublicEndpoint(
    app,
    deps,
    contract.loginPassword,
    async ({ body }, { db, config }) =>
      forgetEnded(
        await service.loginPassword(db, config, { username: body.username, password: body.password }),
      ),
    {
      attempts: ({ body }, { config, ip }) => ({
        budgets: [
          budgets.passwordOfUser(config, service.normalUserName(body.username)),
          budgets.passwordFromAddress(config, ip),
        ],
        tooMany: texts.login.tooMany,
      }),
    },
  );
  registerPublicEndpoint(
    app,
    deps,
    contract.loginCard,
    async ({ body }, { db, config }) =>
      forgetEnded(await service.loginCard(db, config, { card: body.stechuhrdevice })),
    {
      attempts: (_input, { config, ip }) => ({
        budgets: [budgets.cardFromAddress(config, ip)],
        tooMany: texts.login.tooMany,
      }),
    },
  );
  registerEndpoint(app, deps, contract.logout, async (_input, { db, user }) => {
    await service.logout(db, user.sessionId);
    deps.sessions.forgetSession(user.sessionId);
    return { success: true as const };
  });
}
