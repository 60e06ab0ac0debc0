import type { OfflineCall } from '../contract/outbox.ts';
import { coreTexts as texts } from '../contract/texts-core.ts';

/**
 * Every screen route (DESIGN §2a), with the title its header shows (read when shown: in the worker's language); `captures`: the call whose scans wait in
 * the outbox without a connection (the screen says so); screens without it need the server.
 */
interface Screen {
  path: string;
  title: string;
  /** The menu button's text, where it differs from the title (a soft hyphen in a long word). */
  button?: string;
  captures?: OfflineCall;
}

const screenList = {
  batcherfassung: {
    path: '/batcherfassung',
    get title() {
      return texts.menu.batcherfassung;
    },
    captures: 'captureBatch',
  },
  kartonagenerfassung: {
    path: '/kartonagenerfassung',
    get title() {
      return texts.menu.kartonagenerfassung;
    },
  },
  paketausgang: {
    path: '/paketausgang',
    get title() {
      return texts.menu.paketausgang;
    },
    captures: 'paketausgang',
  },
  paketinhalt: {
    path: '/paketinhalt',
    get title() {
      return texts.menu.paketinhalt;
    },
  },
  inventur: {
    path: '/inventur',
    get title() {
      return texts.menu.inventur;
    },
  },
  retoure: {
    path: '/retoure',
    get title() {
      return texts.menu.retoure;
    },
    captures: 'retourenerfassung',
  },
  batch: {
    path: '/batch',
    get title() {
      return texts.menu.batch;
    },
  },
  container: {
    path: '/container',
    get title() {
      return texts.menu.container;
    },
    captures: 'captureContainer',
  },
  transporter: {
    path: '/transporter',
    get title() {
      return texts.menu.transporter;
    },
    captures: 'captureTransporter',
  },
  wmsretoure: {
    path: '/wmsretoure',
    get title() {
      return texts.menu.wmsretoure;
    },
  },
  zollpaket: {
    path: '/zollpaket',
    get title() {
      return texts.menu.zollpaket;
    },
  },
  kommissionierung: {
    path: '/kommissionierung',
    get title() {
      return texts.menu.kommissionierung;
    },
    get button() {
      return texts.menu.kommissionierungButton;
    },
  },
  umbuchung: {
    path: '/umbuchung',
    get title() {
      return texts.menu.umbuchung;
    },
  },
  artikelumlagern: {
    path: '/artikelumlagern',
    get title() {
      return texts.menu.artikelumlagern;
    },
  },
  nachschub: {
    path: '/nachschub',
    get title() {
      return texts.menu.nachschub;
    },
  },
  lagercheck: {
    path: '/lagercheck',
    get title() {
      return texts.menu.lagercheck;
    },
  },
  wareneingang: {
    path: '/wareneingang',
    get title() {
      return texts.menu.wareneingang;
    },
  },
} satisfies Record<string, Screen>;

export type ScreenName = keyof typeof screenList;
export const screens: Readonly<Record<ScreenName, Screen>> = screenList;

/** The main menu: SPEC §2's 11 buttons in its order, then the flows added since (issue 22). */
export const mainMenu: ScreenName[] = [
  'batcherfassung',
  'kartonagenerfassung',
  'paketausgang',
  'paketinhalt',
  'inventur',
  'retoure',
  'batch',
  'container',
  'transporter',
  'wmsretoure',
  'zollpaket',
  'wareneingang',
  'kommissionierung',
];

/** The beta menu (SPEC §2), after its Zurück button. */
export const betaMenu: ScreenName[] = ['umbuchung', 'artikelumlagern', 'nachschub', 'lagercheck'];

export const paths = {
  home: '/',
  beta: '/beta',
  settings: '/einstellungen',
  scannerTest: '/einstellungen/scannertest',
  testSheet: '/einstellungen/testbogen',
  outbox: '/ungesendet',
  leitstand: '/leitstand',
} as const;
