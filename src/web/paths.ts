import type { OfflineCall } from '../contract/outbox.ts';
import { coreTexts as texts } from '../contract/texts-core.ts';

/**
 * Every screen route (DESIGN §2a), with the title its header shows (`texts.menu`, by the screen's name);
 * `captures`: the call whose scans wait in the outbox without a connection (the screen says so); screens
 * without it need the server.
 */
interface Screen {
  path: string;
  title: string;
  /** The menu button's text, where it differs from the title (a soft hyphen in a long word). */
  button?: string;
  captures?: OfflineCall;
}

/** Where a screen is; its menu button's text by its key in `texts.menu`, where it differs from the title. */
interface ScreenEntry {
  path: string;
  button?: keyof typeof texts.menu;
  captures?: OfflineCall;
}

const screenList = {
  batcherfassung: { path: '/batcherfassung', captures: 'captureBatch' },
  kartonagenerfassung: { path: '/kartonagenerfassung' },
  paketausgang: { path: '/paketausgang', captures: 'paketausgang' },
  paketinhalt: { path: '/paketinhalt' },
  inventur: { path: '/inventur' },
  retoure: { path: '/retoure', captures: 'retourenerfassung' },
  batch: { path: '/batch' },
  container: { path: '/container', captures: 'captureContainer' },
  transporter: { path: '/transporter', captures: 'captureTransporter' },
  wmsretoure: { path: '/wmsretoure' },
  zollpaket: { path: '/zollpaket' },
  kommissionierung: { path: '/kommissionierung', button: 'kommissionierungButton' },
  umbuchung: { path: '/umbuchung' },
  artikelumlagern: { path: '/artikelumlagern' },
  nachschub: { path: '/nachschub' },
  lagercheck: { path: '/lagercheck' },
  wareneingang: { path: '/wareneingang' },
} satisfies Record<string, ScreenEntry>;

export type ScreenName = keyof typeof screenList;

/** A screen's title and menu button are read when shown (decision 35): in the worker's language. */
function screen(name: ScreenName): Screen {
  const { path, captures, button }: ScreenEntry = screenList[name];
  return {
    path,
    captures,
    get title() {
      return texts.menu[name];
    },
    get button() {
      return button && texts.menu[button];
    },
  };
}
export const screens = Object.fromEntries(
  Object.keys(screenList).map((name) => [name, screen(name as ScreenName)]),
) as Readonly<Record<ScreenName, Screen>>;

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
