import type { Endpoint } from '../endpoint.ts';
import * as audit from './audit.ts';
import * as benutzer from './benutzer.ts';
import * as bestand from './bestand.ts';
import * as datensicherung from './datensicherung.ts';
import * as importUpload from './import.ts';
import * as inventur from './inventur.ts';
import * as inventurAuswertung from './inventur-auswertung.ts';
import * as klaerfaelle from './klaerfaelle.ts';
import * as kommissionierung from './kommissionierung.ts';
import * as nachschub from './nachschub.ts';
import * as schnittstellen from './schnittstellen.ts';
import * as uebersicht from './uebersicht.ts';
import * as wareneingang from './wareneingang.ts';
import * as zollwagen from './zollwagen.ts';

/**
 * The Leitstand's calls (issue 20, DESIGN §9): one file per area beside this one, each exporting its
 * endpoints; every call lives under `/api/leitstand/` (schichtleitung) or `/api/admin/` (admin). Listed here
 * so the route-table test walks them all.
 */
export const leitstandContract: readonly Endpoint[] = [
  uebersicht.leitstandLive,
  uebersicht.leitstandUebersicht,
  klaerfaelle.klaerfaelleList,
  klaerfaelle.klaerfallErledigt,
  klaerfaelle.klaerfallZurueck,
  zollwagen.zollwagenList,
  zollwagen.zollwagenAbschliessen,
  nachschub.nachschubMinima,
  nachschub.nachschubMinimumSetzen,
  kommissionierung.kommissionierProfile,
  kommissionierung.kommissionierProfilAnlegen,
  kommissionierung.kommissionierProfilAendern,
  kommissionierung.kommissionierProfilEntfernen,
  kommissionierung.welleFreigeben,
  kommissionierung.wellen,
  kommissionierung.welleLieferscheine,
  kommissionierung.welleHerausnehmen,
  kommissionierung.kommissionierwagen,
  kommissionierung.fahrtBeenden,
  kommissionierung.fachLeeren,
  inventur.zaehlplaene,
  inventur.zaehlplanAnlegen,
  inventur.zaehlplanAendern,
  inventur.zaehlplanEntfernen,
  inventur.zaehlauftraegeAnlegen,
  inventur.zaehlauftraege,
  inventur.zaehlauftragZuweisen,
  inventur.zaehlauftragVerwerfen,
  inventur.differenzen,
  inventur.differenzBuchen,
  inventur.differenzNachzaehlen,
  audit.auditList,
  benutzer.users,
  benutzer.createUser,
  benutzer.setUserRole,
  benutzer.setUserLanguage,
  benutzer.setUserPassword,
  benutzer.setUserActive,
  benutzer.newUserCard,
  schnittstellen.integrationTokens,
  schnittstellen.createIntegrationToken,
  schnittstellen.revokeIntegrationToken,
  importUpload.importKinds,
  importUpload.runImport,
  bestand.bestandArtikel,
  bestand.bestandLagerplatz,
  bestand.journal,
  bestand.journalCsv,
  wareneingang.wareneingangList,
  datensicherung.datensicherung,
  inventurAuswertung.abcKlassen,
  inventurAuswertung.abcBerechnen,
  inventurAuswertung.klasseAendern,
  inventurAuswertung.abdeckung,
  inventurAuswertung.inventurlisteCsv,
  inventurAuswertung.inventurlistePdf,
];

/** The area modules, for the API document's Leitstand tag (add each area's module). */
export const leitstandModules: readonly Record<string, unknown>[] = [
  uebersicht,
  klaerfaelle,
  zollwagen,
  nachschub,
  kommissionierung,
  inventur,
  audit,
  benutzer,
  schnittstellen,
  importUpload,
  bestand,
  wareneingang,
  datensicherung,
  inventurAuswertung,
];
