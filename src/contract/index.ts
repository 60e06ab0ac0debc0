import * as auth from './auth.ts';
import * as capture from './capture.ts';
import type { Endpoint } from './endpoint.ts';
import * as exportApi from './export.ts';
import * as inventur from './inventur.ts';
import * as nachschub from './nachschub.ts';
import * as paketinhalt from './paketinhalt.ts';
import * as umbuchung from './umbuchung.ts';
import * as wmsretoure from './wmsretoure.ts';
import * as zollpaket from './zollpaket.ts';

/** Every call of SPEC §7, in the order of its table. */
export const contract: readonly Endpoint[] = [
  inventur.findArticle,
  inventur.findLp,
  umbuchung.checkLpArticle,
  umbuchung.articleInfo,
  umbuchung.locationContent,
  umbuchung.moveArticle,
  umbuchung.moveLocation,
  inventur.bookInventur,
  inventur.inventurHistory,
  capture.captureBatch,
  capture.batchByDeliveryNote,
  capture.assignBatch,
  capture.captureContainer,
  capture.captureTransporter,
  paketinhalt.packageContent,
  paketinhalt.packageContentCheat,
  paketinhalt.scanPackageItem,
  paketinhalt.klaerfall,
  paketinhalt.packageRecording,
  paketinhalt.savePackageRecording,
  capture.paketausgang,
  capture.paketausgangCompare,
  capture.retourenerfassung,
  wmsretoure.wmsItem,
  wmsretoure.wmsStorage,
  wmsretoure.bookWmsRetoure,
  auth.loginCard,
  auth.loginPassword,
  auth.logout,
  zollpaket.checkWagen,
  zollpaket.findWagen,
  zollpaket.zollPaket,
  zollpaket.zollHistory,
];

/** Calls the spec does not have (DESIGN §1): named in the route-table test beside the spec's own. */
export const extraContract: readonly Endpoint[] = [nachschub.replenishmentList];

/** The export API for other systems (integration tokens only, never a scanner login). */
export const exportContract: readonly Endpoint[] = Object.values(exportApi.exportEndpoints);

export { auth, capture, exportApi, inventur, nachschub, paketinhalt, umbuchung, wmsretoure, zollpaket };
