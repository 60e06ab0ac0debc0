import { type ComponentType, lazy } from 'react';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
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
];
