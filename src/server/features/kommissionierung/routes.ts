import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/kommissionierung.ts';
import type { AuthUser } from '../../auth/sessions.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function kommissionierungRoutes(app: FastifyInstance, deps: Deps): void {
  const picker = (user: AuthUser): service.Picker => ({
    userId: user.id,
    sessionId: user.sessionId,
    now: new Date(deps.clock()),
    claimMinutes: deps.config.pickClaimMinutes,
    timeZone: deps.config.timeZone,
  });
  registerEndpoint(app, deps, contract.pickClaim, ({ body }, { db, user }) =>
    service.pickClaim(db, picker(user), body.belegnr),
  );
  registerEndpoint(app, deps, contract.pickNext, (_input, { db, user }) =>
    service.pickNext(db, picker(user)),
  );
  // The pick's wire names (`id`, `positionId`, `lagerplatzId`, `menge`: stored in waiting outbox entries)
  // become the glossary's `deliveryNoteId`, `lineId`, `locationId` and `amount` here, once (decision 32).
  registerEndpoint(app, deps, contract.pickTake, ({ body }, { db, user, requestKey }) => {
    const { id: deliveryNoteId, positionId: lineId, lagerplatzId: locationId, menge: amount } = body;
    return service.pickTake(db, picker(user), { deliveryNoteId, lineId, locationId, amount, requestKey });
  });
  registerEndpoint(app, deps, contract.pickShortage, ({ body }, { db, user }) => {
    const { id: deliveryNoteId, positionId: lineId, lagerplatzId: locationId, menge: amount } = body;
    return service.pickShortage(db, picker(user), { deliveryNoteId, lineId, locationId, amount });
  });
  registerEndpoint(app, deps, contract.pickRelease, ({ body }, { db, user }) =>
    service.pickRelease(db, picker(user), body.id),
  );
}
