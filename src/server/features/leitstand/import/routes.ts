import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/import.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

export function importRoutes(app: FastifyInstance, deps: Deps): void {
  const limit = deps.config.importLimitBytes;
  registerEndpoint(app, deps, contract.importKinds, async () => service.importKinds(limit));
  registerEndpoint(
    app,
    deps,
    contract.runImport,
    async ({ params, body }, ctx) =>
      service.runImport(
        ctx.db,
        { userId: ctx.user.id, requestKey: ctx.requestKey },
        deps.config.imagesDir,
        params.kind,
        body,
      ),
    { bodyLimit: limit },
  );
}
