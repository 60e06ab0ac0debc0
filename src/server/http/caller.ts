import type { FastifyRequest } from 'fastify';
import type { Endpoint } from '../../contract/endpoint.ts';
import { exportMessages } from '../../contract/export.ts';
import { hasRole } from '../../contract/roles.ts';
import { texts } from '../../contract/texts.ts';
import { budgets, reserveAttempt } from '../auth/attempt-limits.ts';
import { checkIntegrationToken, findLiveIntegrationToken } from '../auth/integration-tokens.ts';
import { hashToken } from '../auth/secrets.ts';
import { type AuthUser, checkSession } from '../auth/sessions.ts';
import { forbidden, unauthenticated } from '../domain/errors.ts';
import { recordAudit } from '../repositories/audit.repository.ts';
import type { Deps } from './deps.ts';
import { answerIn } from './language.ts';

/**
 * Who calls: a staff login (a session token, with the call's role) or an integration (its token). Every
 * route's helper asks here (route.ts, gate.ts, stepped-route.ts, stream.ts), as does /metrics.
 */

/** The token from `Authorization: Bearer …` or `Access-Token: …` (the client sends both). */
export function tokenOf(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const accessToken = request.headers['access-token'];
  if (typeof accessToken === 'string' && accessToken.trim() !== '') return accessToken.trim();
  return null;
}

export async function requireUser(deps: Deps, request: FastifyRequest): Promise<AuthUser> {
  const token = tokenOf(request);
  if (!token || token.length > 200) throw unauthenticated();
  const tokenHash = hashToken(token);
  const known = deps.sessions.get(tokenHash);
  if (known) {
    answerIn(known.language);
    return known;
  }
  const user = await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash);
  if (!user) {
    // An integration token is no login: say so, instead of the staff's "log in again".
    if (await findLiveIntegrationToken(deps.db, token)) throw forbidden(exportMessages.integrationOnly);
    throw unauthenticated();
  }
  deps.sessions.remember(tokenHash, user);
  answerIn(user.language);
  return user;
}

/**
 * The caller of a staff call and whether their role may make it: 401 without a live login, 403 (German)
 * below the call's role. The user is noted on the request first, so the request log names whoever was
 * refused; a refused role is also journalled (audit `access.denied`: who, which call, when, refused).
 */
export async function loginFor(deps: Deps, endpoint: Endpoint, request: FastifyRequest): Promise<AuthUser> {
  if (request.authUser) return request.authUser;
  const user = await requireUser(deps, request);
  request.authUser = user;
  if (endpoint.role && !hasRole(user.role, endpoint.role)) {
    await recordAudit(deps.db, {
      userId: user.id,
      action: 'access.denied',
      subject: `${endpoint.method} ${endpoint.path}`,
      detail: { outcome: 'refused', role: user.role },
      requestKey: null,
    });
    throw forbidden(texts.errors.role[endpoint.role]);
  }
  return user;
}

/**
 * The integration behind `Authorization: Bearer <integration token>`, for the integrations' calls (export
 * feeds, the ERP's receipt push) and /metrics. A scanner's login is refused with 403 (it is a valid login,
 * just not for this API); anything else with 401.
 */
export async function requireIntegration(
  deps: Deps,
  request: FastifyRequest,
): Promise<{ id: number; name: string }> {
  const authorization = request.headers.authorization;
  const bearer =
    typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const token = tokenOf(request);
  if (!token) throw unauthenticated(exportMessages.missingToken);
  // Every token offered is an attempt, counted before it is checked, like a password (decision 14).
  const attempt = await reserveAttempt(
    deps.db,
    [budgets.integrationFromAddress(deps.config, request.ip)],
    exportMessages.tooManyTokens,
    request.log,
  );
  if (bearer && bearer.length <= 200) {
    const integration = await checkIntegrationToken(deps.db, bearer);
    if (integration) {
      await attempt.settle('succeeded');
      return integration;
    }
  }
  if (token.length <= 200) {
    const tokenHash = hashToken(token);
    const login =
      deps.sessions.get(tokenHash) ??
      (await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash));
    if (login) {
      // A scanner's own login: no guess at a token.
      await attempt.settle('unchecked');
      throw forbidden(exportMessages.scannerLogin);
    }
  }
  await attempt.settle('failed');
  throw unauthenticated(exportMessages.unknownToken);
}

/**
 * The login behind a token's hash now, or null: from the session cache as every call reads it, or
 * (`fresh`) straight from the database (and remembered).
 */
export async function currentLogin(deps: Deps, tokenHash: string, fresh: boolean): Promise<AuthUser | null> {
  const known = fresh ? null : deps.sessions.get(tokenHash);
  if (known) return known;
  const login = await checkSession(deps.db, deps.config.sessionIdleMinutes, tokenHash);
  if (login) deps.sessions.remember(tokenHash, login);
  return login;
}
