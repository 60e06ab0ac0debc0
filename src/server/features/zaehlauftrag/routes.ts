import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/zaehlauftrag.ts';
import type { AuthUser } from '../../auth/sessions.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

/** 'Zählauftrag' on the handheld (issue 42, decision 34): blind counts of count tasks. */
export function zaehlauftragRoutes(app: FastifyInstance, deps: Deps): void {
  const counter = (user: AuthUser): service.Counter => ({
    userId: user.id,
    sessionId: user.sessionId,
    loginIdleMinutes: deps.config.sessionIdleMinutes,
    now: new Date(deps.clock()),
    timeZone: deps.config.timeZone,
  });
  registerEndpoint(app, deps, contract.zaehlauftragNaechster, async (_input, { db, user }) => ({
    success: true as const,
    data: await service.next(db, counter(user)),
  }));
  registerEndpoint(app, deps, contract.zaehlauftragAktuell, async (_input, { db, user }) => ({
    success: true as const,
    data: await service.current(db, counter(user)),
  }));
  registerEndpoint(app, deps, contract.zaehlauftragPlatz, async ({ params, body }, { db, user }) => ({
    success: true as const,
    data: await service.scanLocation(db, params.id, body.lagerplatz, counter(user)),
  }));
  registerEndpoint(
    app,
    deps,
    contract.zaehlauftragZaehlung,
    async ({ params, body }, { db, user, requestKey }) => ({
      success: true as const,
      data: await service.count(
        db,
        params.id,
        { articleId: body.artikelId, amount: body.menge, requestKey },
        counter(user),
      ),
    }),
  );
  registerEndpoint(app, deps, contract.zaehlauftragLeer, async ({ params }, { db, user, requestKey }) => ({
    success: true as const,
    data: await service.empty(db, params.id, requestKey, counter(user)),
  }));
  registerEndpoint(app, deps, contract.zaehlauftragFertig, async ({ params }, { db, user, requestKey }) => ({
    success: true as const,
    data: await service.finish(db, params.id, requestKey, counter(user)),
  }));
  registerEndpoint(app, deps, contract.zaehlauftragAbbrechen, async ({ params }, { db, user }) => {
    await service.abandon(db, params.id, counter(user));
    return { success: true as const };
  });
}
