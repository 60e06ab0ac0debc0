import type { FastifyInstance } from 'fastify';
import { paketausgang, paketausgangCompare } from '../../../contract/paketausgang.ts';
import { retourenerfassung } from '../../../contract/retoure.ts';
import { type Deps, registerEndpoint } from '../../http/route.ts';
import { paketausgang as ausgang, paketausgangVergleich, retoureErfassen } from './service.ts';

export function paketausgangRoutes(app: FastifyInstance, deps: Deps): void {
  registerEndpoint(app, deps, paketausgang, ({ body }, { db, user }) =>
    ausgang(db, { tracking: body.tracking, userId: user.id }),
  );
  registerEndpoint(app, deps, paketausgangCompare, ({ body }, { db, user }) =>
    paketausgangVergleich(db, { tracking: body.tracking, belegnr: body.belegnr, userId: user.id }),
  );
  registerEndpoint(app, deps, retourenerfassung, ({ body }, { db, user }) =>
    retoureErfassen(db, { tracking: body.tracking, userId: user.id }),
  );
}
