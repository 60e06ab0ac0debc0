import * as auth from './auth.ts';
import * as batch from './batch.ts';
import * as container from './container.ts';
import type { Endpoint } from './endpoint.ts';
import * as etiketten from './etiketten.ts';
import * as exportApi from './export.ts';
import * as inventur from './inventur.ts';
import * as kartonagen from './kartonagen.ts';
import * as kommissionierung from './kommissionierung.ts';
import * as kommissionierwagen from './kommissionierwagen.ts';
import { leitstandContract, leitstandModules } from './leitstand/index.ts';
import * as lookup from './lookup.ts';
import * as nachschub from './nachschub.ts';
import * as paketausgang from './paketausgang.ts';
import * as paketinhalt from './paketinhalt.ts';
import * as retoure from './retoure.ts';
import * as transporter from './transporter.ts';
import * as umbuchung from './umbuchung.ts';
import * as wareneingang from './wareneingang.ts';
import * as wmsretoure from './wmsretoure.ts';
import * as zaehlauftrag from './zaehlauftrag.ts';
import * as zollpaket from './zollpaket.ts';

/** Every call of SPEC §7, in the order of its table. */
export const contract: readonly Endpoint[] = [
  lookup.findArticle,
  lookup.findLp,
  umbuchung.checkLpArticle,
  umbuchung.articleInfo,
  umbuchung.locationContent,
  umbuchung.moveArticle,
  umbuchung.moveLocation,
  inventur.bookInventur,
  inventur.inventurHistory,
  batch.captureBatch,
  batch.batchByDeliveryNote,
  batch.assignBatch,
  container.captureContainer,
  transporter.captureTransporter,
  paketinhalt.packageContent,
  paketinhalt.packageContentCheat,
  paketinhalt.scanPackageItem,
  paketinhalt.klaerfall,
  kartonagen.packageRecording,
  kartonagen.savePackageRecording,
  paketausgang.paketausgang,
  paketausgang.paketausgangCompare,
  retoure.retourenerfassung,
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
export const extraContract: readonly Endpoint[] = [
  nachschub.replenishmentList,
  wareneingang.receiptByNumber,
  wareneingang.suggestLocation,
  wareneingang.bookReceipt,
  wareneingang.closeReceipt,
  kommissionierung.pickClaim,
  kommissionierung.pickNext,
  kommissionierung.pickTake,
  kommissionierung.pickShortage,
  kommissionierung.pickRelease,
  kommissionierwagen.cartList,
  kommissionierwagen.cartStart,
  kommissionierwagen.cartPutAway,
  kommissionierwagen.cartShortage,
  kommissionierwagen.cartDefer,
  kommissionierwagen.cartUndo,
  kommissionierwagen.cartFinish,
  kommissionierwagen.cartRelease,
  zaehlauftrag.zaehlauftragNaechster,
  zaehlauftrag.zaehlauftragAktuell,
  zaehlauftrag.zaehlauftragPlatz,
  zaehlauftrag.zaehlauftragZaehlung,
  zaehlauftrag.zaehlauftragLeer,
  zaehlauftrag.zaehlauftragFertig,
  zaehlauftrag.zaehlauftragAbbrechen,
  auth.setLanguage,
];

/** The Leitstand's calls for shift leads and admins (src/contract/leitstand/). */
export { leitstandContract, leitstandModules };

/** Labels (issue 21): the downloads for the Leitstand, the badges for admins, printing from both ends. */
export const etikettenContract: readonly Endpoint[] = [
  ...Object.values(etiketten.labelDownloads).flatMap((formats) => [formats.pdf, formats.zpl]),
  etiketten.ausweisDatei,
  etiketten.druckerListe,
  etiketten.drucken,
  etiketten.adminDrucker,
  etiketten.druckerAnlegen,
  etiketten.druckerAendern,
  etiketten.druckerEntfernen,
];

/**
 * The calls for other systems (integration tokens only, never a scanner login): the export API, and the ERP
 * pushing a receipt (Wareneingang).
 */
export const exportContract: readonly Endpoint[] = [
  ...Object.values(exportApi.exportEndpoints),
  wareneingang.pushReceipt,
];

/** One module per feature, named as the feature (decision 16). */
export {
  auth,
  batch,
  container,
  etiketten,
  exportApi,
  inventur,
  kartonagen,
  kommissionierung,
  kommissionierwagen,
  lookup,
  nachschub,
  paketausgang,
  paketinhalt,
  retoure,
  transporter,
  umbuchung,
  wareneingang,
  wmsretoure,
  zaehlauftrag,
  zollpaket,
};
