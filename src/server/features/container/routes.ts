import type { FastifyInstance } from 'fastify';
import * as contract from '../../../contract/container.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import * as service from './service.ts';

export function containerRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, contract.captureContainer, ({ body }, { db, user }) =>
    service.captureContainer(db, { container: body.container, batch: body.batch, userId: user.id }),
  );
}
