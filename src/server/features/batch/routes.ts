import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/batch.ts';
import { texts } from '../../../contract/texts.ts';
import { budgets } from '../../auth/attempt-limits.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function batchRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.captureBatch, ({ body }, { db, user }) =>
    service.captureBatch(db, { batch: body.batch, userId: user.id }),
  );
  registerEndpoint(app, deps, contract.batchByDeliveryNote, ({ params }, { db }) =>
    service.batchByDeliveryNote(db, params.belegnr),
  );
  registerEndpoint(
    app,
    deps,
    contract.assignBatch,
    ({ body }, { db, user }) =>
      service.assignBatch(db, { batch: body.lieferschein, card: body.qrcode, userId: user.id }),
    {
      // A card scanned here is checked like a card login: guessing one here must cost the same.
      attempts: (_input, { config, user, ip }) => ({
        budgets: [budgets.cardOfUser(config, user.id), budgets.cardFromAddress(config, ip)],
        tooMany: texts.batch.tooManyCards,
      }),
    },
  );
}
