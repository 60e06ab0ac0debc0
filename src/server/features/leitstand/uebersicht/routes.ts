import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/uebersicht.ts';
import type { Deps } from '../../../http/route.ts';
import { registerSteppedEndpoint } from '../../../http/stepped-route.ts';
import { registerStream } from '../../../http/stream.ts';
import * as service from './service.ts';

export function uebersichtRoutes(app: FastifyInstance, deps: Deps): void {
  registerSteppedEndpoint(app, deps, contract.leitstandUebersicht, async (_input, { db, config, steps }) => ({
    success: true as const,
    data: await service.leitstandUebersicht(steps, db, config.timeZone),
  }));

  // Each event goes out only while the login still allows it (a logout, a lowered role, a user switched off
  // end the stream instead).
  registerStream(
    app,
    deps,
    contract.leitstandLive,
    ({ stillAllowed, send }) =>
      deps.changes.subscribe((topics) => {
        void stillAllowed().then((allowed) => {
          if (allowed) send('change', { topics });
        });
      }),
    { tooMany: contract.leitstandTexts.tooManyStreams },
  );
}
