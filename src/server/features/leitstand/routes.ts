import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../http/route.ts';
import { auditRoutes } from './audit/routes.ts';
import { benutzerRoutes } from './benutzer/routes.ts';
import { bestandRoutes } from './bestand/routes.ts';
import { datensicherungRoutes } from './datensicherung/routes.ts';
import { importRoutes } from './import/routes.ts';
import { inventurLeitstandRoutes } from './inventur/routes.ts';
import { inventurAuswertungRoutes } from './inventur-auswertung/routes.ts';
import { klaerfaelleRoutes } from './klaerfaelle/routes.ts';
import { kommissionierungRoutes } from './kommissionierung/routes.ts';
import { nachschubRoutes } from './nachschub/routes.ts';
import { schnittstellenRoutes } from './schnittstellen/routes.ts';
import { uebersichtRoutes } from './uebersicht/routes.ts';
import { wareneingangRoutes } from './wareneingang/routes.ts';
import { zollwagenRoutes } from './zollwagen/routes.ts';

/**
 * The Leitstand's routes (issue 20): one folder per area beside this file (`<area>/routes.ts` +
 * `service.ts`), each registered here. Calls under `/api/leitstand/` need schichtleitung, under
 * `/api/admin/` admin (the contract declares it; src/server/http/caller.ts refuses a lower role).
 */
export function leitstandRoutes(app: FastifyInstance, deps: Deps): void {
  uebersichtRoutes(app, deps);
  klaerfaelleRoutes(app, deps);
  bestandRoutes(app, deps);
  auditRoutes(app, deps);
  benutzerRoutes(app, deps);
  schnittstellenRoutes(app, deps);
  importRoutes(app, deps);
  zollwagenRoutes(app, deps);
  nachschubRoutes(app, deps);
  kommissionierungRoutes(app, deps);
  inventurLeitstandRoutes(app, deps);
  wareneingangRoutes(app, deps);
  datensicherungRoutes(app, deps);
  inventurAuswertungRoutes(app, deps);
}
