import type { OfflineCall } from '../contract/outbox.ts';
import { coreTexts as texts } from '../contract/texts-core.ts';

/**
 * Every screen route (DESIGN §2a), with the title its header shows; `captures`: the call whose scans wait in
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
  batcherfassung: { path: '/batcherfassung', title: texts.menu.batcherfassung, captures: 'captureBatch' },
  kartonagenerfassung: { path: '/kartonagenerfassung', title: texts.menu.kartonagenerfassung },
  paketausgang: { path: '/paketausgang', title: texts.menu.paketausgang, captures: 'paketausgang' },
  paketinhalt: { path: '/paketinhalt', title: texts.menu.paketinhalt },
  inventur: { path: '/inventur', title: texts.menu.inventur },
  retoure: { path: '/retoure', title: texts.menu.retoure, captures: 'retourenerfassung' },
  batch: { path: '/batch', title: texts.menu.batch },
  container: { path: '/container', title: texts.menu.container, captures: 'captureContainer' },
  transporter: { path: '/transporter', title: texts.menu.transporter, captures: 'captureTransporter' },
  wmsretoure: { path: '/wmsretoure', title: texts.menu.wmsretoure },
  zollpaket: { path: '/zollpaket', title: texts.menu.zollpaket },
  kommissionierung: {
    path: '/kommissionierung',
    title: texts.menu.kommissionierung,
    button: texts.menu.kommissionierungButton,
  },
  umbuchung: { path: '/umbuchung', title: texts.menu.umbuchung },
  artikelumlagern: { path: '/artikelumlagern', title: texts.menu.artikelumlagern },
  nachschub: { path: '/nachschub', title: texts.menu.nachschub },
  lagercheck: { path: '/lagercheck', title: texts.menu.lagercheck },
  wareneingang: { path: '/wareneingang', title: texts.menu.wareneingang },
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
