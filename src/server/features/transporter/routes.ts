import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/transporter.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function transporterRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.captureTransporter, ({ body }, { db, user }) =>
    service.captureTransporter(db, { ...body, userId: user.id }),
  );
}
