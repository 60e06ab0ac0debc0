import type { FastifyInstance } from 'fastify';
import { packageRecording, savePackageRecording } from '../../../contract/kartonagen.ts';
import { texts } from '../../../contract/texts.ts';
import { invalid } from '../../domain/errors.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { kartonagen, kartonagenSpeichern } from './service.ts';

export function kartonagenRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, packageRecording, async ({ params }, { db }) => ({
    data: await kartonagen(db, params.belegnr),
  }));
  registerEndpoint(app, deps, savePackageRecording, ({ params, body }, { db, user }) => {
    if (params.id !== body.id) throw invalid(texts.kartonagen.idMismatch);
    return kartonagenSpeichern(db, { id: body.id, kartonagen: body.kartonagen, userId: user.id });
  });
}
