import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/datensicherung.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

export function datensicherungRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.datensicherung, async (_input, { db }) =>
    service.datensicherung(db, deps.clock()),
  );
}
