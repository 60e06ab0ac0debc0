import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/kommissionierwagen.ts';
import type { AuthUser } from '../../auth/sessions.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function kommissionierwagenRoutes(app: FastifyInstance, deps: Deps): void {
  const picker = (user: AuthUser): service.Picker => ({
    userId: user.id,
    sessionId: user.sessionId,
    now: new Date(deps.clock()),
    claimMinutes: deps.config.pickClaimMinutes,
    timeZone: deps.config.timeZone,
  });
  registerEndpoint(app, deps, contract.cartList, (_input, { db }) => service.cartList(db));
  registerEndpoint(app, deps, contract.cartStart, ({ body }, { db, user }) =>
    service.cartStart(db, picker(user), body.code, deps.config.sessionIdleMinutes),
  );
  // The wire names (`fahrtId`, `positionId`, `lagerplatzId`, `fach`, `menge`, `bewegungId`) become the
  // glossary's here, once (decision 32).
  registerEndpoint(app, deps, contract.cartPutAway, ({ body }, { db, user, requestKey }) =>
    service.cartPutAway(db, picker(user), {
      tripId: body.fahrtId,
      lineId: body.positionId,
      locationId: body.lagerplatzId,
      compartment: body.fach,
      amount: body.menge,
      requestKey,
    }),
  );
  registerEndpoint(app, deps, contract.cartShortage, ({ body }, { db, user }) =>
    service.cartShortage(db, picker(user), {
      tripId: body.fahrtId,
      lineId: body.positionId,
      amount: body.menge,
      locationId: body.lagerplatzId,
    }),
  );
  registerEndpoint(app, deps, contract.cartDefer, ({ body }, { db, user }) =>
    service.cartDefer(db, picker(user), { tripId: body.fahrtId, locationId: body.lagerplatzId }),
  );
  registerEndpoint(app, deps, contract.cartUndo, ({ body }, { db, user, requestKey }) =>
    service.cartUndo(db, picker(user), { tripId: body.fahrtId, movementId: body.bewegungId, requestKey }),
  );
  registerEndpoint(app, deps, contract.cartFinish, ({ body }, { db, user }) =>
    service.cartFinish(db, picker(user), body.fahrtId),
  );
  registerEndpoint(app, deps, contract.cartRelease, ({ body }, { db, user }) =>
    service.cartRelease(db, picker(user), body.fahrtId),
  );
}
