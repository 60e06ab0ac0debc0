import type { FastifyInstance } from 'fastify';
import * as contract from '../../../../contract/leitstand/wareneingang.ts';
import { type Deps, registerEndpoint } from '../../../http/route.ts';
import * as service from './service.ts';

/** Wareneingänge in the Leitstand (issue 22): open and lately closed receipts with their differences. */
export function wareneingangRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.wareneingangList, async (_input, { db }) => ({
    data: await service.wareneingangList(db),
  }));
}
