import * as auth from './auth.ts';
import * as capture from './capture.ts';
import type { Endpoint } from './endpoint.ts';
import * as inventur from './inventur.ts';
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

export { auth, capture, inventur, paketinhalt, umbuchung, wmsretoure, zollpaket };
