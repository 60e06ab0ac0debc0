import type { FastifyInstance } from 'fastify';
import { assignBatch, batchByDeliveryNote, captureBatch } from '../../../contract/batch.ts';
import { captureContainer } from '../../../contract/container.ts';
import { texts } from '../../../contract/texts.ts';
import { captureTransporter } from '../../../contract/transporter.ts';
import { budgets } from '../../auth/attempt-limits.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import {
  batchErfassen,
  batchMitarbeiter,
  batchZuLieferschein,
  containerErfassen,
  transporterErfassen,
} from './service.ts';

export function erfassungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, captureBatch, ({ body }, { db, user }) =>
    batchErfassen(db, { batch: body.batch, userId: user.id }),
  );
  registerEndpoint(app, deps, batchByDeliveryNote, ({ params }, { db }) =>
    batchZuLieferschein(db, params.belegnr),
  );
  registerEndpoint(
    app,
    deps,
    assignBatch,
    ({ body }, { db, user }) =>
      batchMitarbeiter(db, { batch: body.lieferschein, card: body.qrcode, userId: user.id }),
    {
      // A card scanned here is checked like a card login: guessing one here must cost the same.
      attempts: (_input, { config, user, ip }) => ({
        budgets: [budgets.cardOfUser(config, user.id), budgets.cardFromAddress(config, ip)],
        tooMany: texts.batch.tooManyCards,
      }),
    },
  );
  registerEndpoint(app, deps, captureContainer, ({ body }, { db, user }) =>
    containerErfassen(db, { container: body.container, batch: body.batch, userId: user.id }),
  );
  registerEndpoint(app, deps, captureTransporter, ({ body }, { db, user }) =>
    transporterErfassen(db, { ...body, userId: user.id }),
  );
}
