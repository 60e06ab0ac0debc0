import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/paketinhalt.ts';
import { hasRole } from '../../../contract/roles.ts';
import { texts } from '../../../contract/texts.ts';
import { budgets } from '../../auth/attempt-limits.ts';
import { invalid } from '../../domain/errors.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function paketinhaltRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.packageContent, async ({ params }, { db, config }) => ({
    data: await service.packageContent(db, params.belegnr, config.packUnpicked),
  }));
  registerEndpoint(
    app,
    deps,
    contract.scanPackageItem,
    ({ params, body }, { db, config, user, requestKey }) => {
      if (params.itemNr !== body.itemNr) throw invalid(texts.paketinhalt.itemNrMismatch);
      return service.scanPackageItem(db, config.cheatCode, {
        deliveryNoteId: body.id,
        itemNr: body.itemNr,
        userId: user.id,
        mayCheat: hasRole(user.role, contract.packageContentCheat.role ?? 'admin'),
        packUnpicked: config.packUnpicked,
        requestKey,
      });
    },
    {
      // A scan matching nothing was compared with the cheat code: a guess, if there is a code to guess.
      attempts: (_input, { config, user }) =>
        config.cheatCode === null
          ? null
          : { budgets: [budgets.itemMissOfUser(config, user.id)], tooMany: texts.paketinhalt.tooManyCodes },
    },
  );
  registerEndpoint(
    app,
    deps,
    contract.packageContentCheat,
    ({ body }, { db, config, user, requestKey }) =>
      service.packageContentCheat(db, config.cheatCode, {
        deliveryNoteId: body.id,
        code: body.code,
        userId: user.id,
        packUnpicked: config.packUnpicked,
        requestKey,
      }),
    {
      attempts: (_input, { config, user, ip }) =>
        config.cheatCode === null
          ? null
          : {
              budgets: [budgets.cheatOfUser(config, user.id), budgets.cheatFromAddress(config, ip)],
              tooMany: texts.paketinhalt.tooManyCodes,
            },
    },
  );
  registerEndpoint(app, deps, contract.klaerfall, ({ body }, { db, user }) =>
    service.klaerfall(db, { deliveryNoteId: body.id, userId: user.id }),
  );
}
