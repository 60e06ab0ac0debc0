import type { FastifyInstance } from 'fastify';
import { loginCard, loginPassword, logout } from '../../../contract/auth.ts';
import { type Deps, registerEndpoint, registerPublicEndpoint } from '../../http/route.ts';
import { abmelden, anmeldenMitKarte, anmeldenMitPasswort } from './service.ts';

export function authRoutes(app: FastifyInstance, deps: Deps): void {
  registerPublicEndpoint(app, deps, loginPassword, ({ body }, { db, config, request }) =>
    anmeldenMitPasswort(db, config, { username: body.username, password: body.password, ip: request.ip }),
  );
  registerPublicEndpoint(app, deps, loginCard, ({ body }, { db, config, request }) =>
    anmeldenMitKarte(db, config, { card: body.stechuhrdevice, ip: request.ip }),
  );
  registerEndpoint(app, deps, logout, async (_input, { db, user }) => {
    await abmelden(db, user.sessionId);
    deps.sessions.forgetSession(user.sessionId);
    return { success: true as const };
  });
}
