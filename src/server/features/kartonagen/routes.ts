import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/kartonagen.ts';
import { texts } from '../../../contract/texts.ts';
import { invalid } from '../../domain/errors.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function kartonagenRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.packageRecording, async ({ params }, { db }) => ({
    data: await service.packageRecording(db, params.belegnr),
  }));
  registerEndpoint(app, deps, contract.savePackageRecording, ({ params, body }, { db, user }) => {
    if (params.id !== body.id) throw invalid(texts.kartonagen.idMismatch);
    return service.savePackageRecording(db, {
      deliveryNoteId: body.id,
      kartonagen: body.kartonagen,
      userId: user.id,
    });
  });
}
