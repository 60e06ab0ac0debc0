import type { FastifyInstance } from 'fastify';
import {
  assignBatch,
  batchByDeliveryNote,
  captureBatch,
  captureContainer,
  captureTransporter,
} from '../../../contract/capture.ts';
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
  registerEndpoint(app, deps, assignBatch, ({ body }, { db, user }) =>
    batchMitarbeiter(db, { batch: body.lieferschein, card: body.qrcode, userId: user.id }),
  );
  registerEndpoint(app, deps, captureContainer, ({ body }, { db, user }) =>
    containerErfassen(db, { container: body.container, batch: body.batch, userId: user.id }),
  );
  registerEndpoint(app, deps, captureTransporter, ({ body }, { db, user }) =>
    transporterErfassen(db, { ...body, userId: user.id }),
  );
}
