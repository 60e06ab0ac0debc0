import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import * as contract from '../../../contract/auth.ts';
import { texts } from '../../../contract/texts.ts';
import { budgets } from '../../auth/attempt-limits.ts';
import type { Opened } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import { WrongSecret } from '../../domain/errors.ts';
import { type Deps, registerEndpoint, registerPublicEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

/** A refused login is counted for the Leitstand's Übersicht, then refused as before. */
const noteFailure =
  (db: Kysely<Database>, kind: 'password' | 'card', username: string | null) =>
  async (error: unknown): Promise<never> => {
    if (error instanceof WrongSecret) await service.recordFailedLogin(db, kind, username);
    throw error;
  };

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
        await service
          .loginPassword(db, config, { username: body.username, password: body.password })
          .catch(noteFailure(db, 'password', body.username)),
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
      forgetEnded(
        await service
          .loginCard(db, config, { card: body.stechuhrdevice })
          .catch(noteFailure(db, 'card', null)),
      ),
    {
      attempts: (_input, { config, ip }) => ({
        budgets: [budgets.cardFromAddress(config, ip)],
        tooMany: texts.login.tooMany,
      }),
    },
  );
  registerEndpoint(app, deps, contract.setLanguage, async ({ body }, { db, user }) => {
    await service.setLanguage(db, user.id, body.language);
    // Every login of this user on this instance answers in it from the next request on (another instance:
    // within its session cache's time).
    deps.sessions.changeLanguage(user.id, body.language);
    return { success: true as const };
  });
  registerEndpoint(app, deps, contract.logout, async (_input, { db, user }) => {
    await service.logout(db, user.sessionId);
    deps.sessions.forgetSession(user.sessionId);
    return { success: true as const };
  });
}
