import { type ComponentType, lazy } from 'react';
import { etikettenTexts } from '../../contract/etiketten.ts';
import { auditTexts } from '../../contract/leitstand/audit.ts';
import { benutzerTexts } from '../../contract/leitstand/benutzer.ts';
import { bestandTexts } from '../../contract/leitstand/bestand.ts';
import { datensicherungTexts } from '../../contract/leitstand/datensicherung.ts';
import { importTexts } from '../../contract/leitstand/import.ts';
import { inventurLeitstandTexts } from '../../contract/leitstand/inventur.ts';
import { inventurAuswertungTexts } from '../../contract/leitstand/inventur-auswertung.ts';
import { klaerfaelleTexts } from '../../contract/leitstand/klaerfaelle.ts';
import { kommissionierungLeitstandTexts } from '../../contract/leitstand/kommissionierung.ts';
import { nachschubTexts } from '../../contract/leitstand/nachschub.ts';
import { schnittstellenTexts } from '../../contract/leitstand/schnittstellen.ts';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { wareneingangLeitstandTexts } from '../../contract/leitstand/wareneingang.ts';
import { zollwagenTexts } from '../../contract/leitstand/zollwagen.ts';
import type { Role } from '../../contract/roles.ts';

/**
 * The Leitstand's pages, in the order of its navigation. `path` is below /leitstand/ ('' is the start page);
 * `role` the least role that sees the page (the server checks every call anyway). Each page is its own chunk.
 */
export interface LeitstandPage {
  path: string;
  title: string;
  role: Role;
  Page: ComponentType;
}

export const leitstandPages: readonly LeitstandPage[] = [
  {
    path: '',
    title: leitstandTexts.uebersicht.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./uebersicht/uebersicht-page.tsx')),
  },
  {
    path: 'klaerfaelle',
    title: klaerfaelleTexts.heading,
    role: 'schichtleitung',
    Page: lazy(() => import('./klaerfaelle/klaerfaelle-page.tsx')),
  },
  {
    path: 'bestand',
    title: bestandTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./bestand/bestand-page.tsx')),
  },
  {
    path: 'journal',
    title: bestandTexts.journalTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./bestand/journal-page.tsx')),
  },
  {
    path: 'zollwagen',
    title: zollwagenTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./zollwagen/zollwagen-page.tsx')),
  },
  {
    path: 'nachschub',
    title: nachschubTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./nachschub/nachschub-page.tsx')),
  },
  {
    path: 'wellen',
    title: kommissionierungLeitstandTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./kommissionierung/wellen-page.tsx')),
  },
  {
    path: 'kommissionierwagen',
    title: kommissionierungLeitstandTexts.cartsTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./kommissionierung/wagen-page.tsx')),
  },
  {
    path: 'zaehlplaene',
    title: inventurLeitstandTexts.plansTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./inventur/zaehlplaene-page.tsx')),
  },
  {
    path: 'zaehlauftraege',
    title: inventurLeitstandTexts.tasksTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./inventur/zaehlauftraege-page.tsx')),
  },
  {
    path: 'differenzen',
    title: inventurLeitstandTexts.differencesTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./inventur/differenzen-page.tsx')),
  },
  {
    path: 'abc-klassen',
    title: inventurAuswertungTexts.classesTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./inventur-auswertung/abc-page.tsx')),
  },
  {
    path: 'abdeckung',
    title: inventurAuswertungTexts.coverageTitle,
    role: 'schichtleitung',
    Page: lazy(() => import('./inventur-auswertung/abdeckung-page.tsx')),
  },
  {
    path: 'wareneingang',
    title: wareneingangLeitstandTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./wareneingang/wareneingang-page.tsx')),
  },
  {
    path: 'etiketten',
    title: etikettenTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./etiketten/etiketten-page.tsx')),
  },
  {
    path: 'audit',
    title: auditTexts.title,
    role: 'schichtleitung',
    Page: lazy(() => import('./audit/audit-page.tsx')),
  },
  {
    path: 'benutzer',
    title: benutzerTexts.title,
    role: 'admin',
    Page: lazy(() => import('./benutzer/benutzer-page.tsx')),
  },
  {
    path: 'schnittstellen',
    title: schnittstellenTexts.title,
    role: 'admin',
    Page: lazy(() => import('./schnittstellen/schnittstellen-page.tsx')),
  },
  {
    path: 'import',
    title: importTexts.title,
    role: 'admin',
    Page: lazy(() => import('./import/import-page.tsx')),
  },
  {
    path: 'datensicherung',
    title: datensicherungTexts.title,
    role: 'admin',
    Page: lazy(() => import('./datensicherung/datensicherung-page.tsx')),
  },
];
