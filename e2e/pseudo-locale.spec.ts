import { languages } from '../src/contract/i18n/languages.ts';
import { PSEUDO_CLOSE, PSEUDO_OPEN } from '../src/contract/i18n/pseudo.ts';
import { kommissionierungTexts } from '../src/contract/kommissionierung.ts';
import { texts } from '../src/contract/texts.ts';
import { wareneingangTexts } from '../src/contract/wareneingang.ts';
import { demo } from '../src/server/seed/demo-records.ts';
import { loginWithPassword, scanInto } from './support/helpers.ts';
import { useLanguage } from './support/language.ts';
import { expect, type Page, test } from './support/test.ts';
import { loggedInViews, loggedOutViews, open, type View } from './support/views.ts';

/**
 * The pseudo-language's run over the handheld (issue 43, decision 35): the device set to `qps` before the first
 * page, so every text the catalogues make shows accented, ~40 % longer and between ⟦…⟧ — after the login too
 * (the device's pseudo-language wins over the worker's, on the web as on the server). Every view the
 * accessibility check and the gallery know, and on the capture screens a refusal the server makes and one
 * the handheld makes itself; on each, the visible text and the aria-label, placeholder, title and alt values
 * are read, the marker spans and the data taken out — any letter left is a text that bypasses the catalogues.
 *
 * Overflow (the page scrolls sideways, a button's text is clipped) is reported as an annotation, not a
 * failure: the pseudo-language is longer than any real one on purpose, and the real languages have their
 * own overflow run, which fails. So this run's failure means one thing only: a text no catalogue made.
 */

/**
 * What is data, not text, on these screens: what the server answered besides its messages (article and
 * carton names as the ERP sends them, units, location types, people's names: `serverData`), the demo
 * warehouse's records, what the views type, and each language by its own name (the switch's options).
 * Anything with a digit (numbers, dates, locations, codes) is data too.
 */
const DATA = [
  ...stringsOf(demo),
  'Scanner 7',
  'WB-4711',
  'B-LS 1234',
  'CH-2027',
  'UNBEKANNT-ANSICHT',
  'falsch',
  'demo',
  ...languages.map((l) => l.name),
];

/** Every string in a value, but a `message`'s: the server's texts are the catalogues' and are looked at. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => (key === 'message' ? [] : stringsOf(inner)));
  return [];
}

/**
 * The strings of the server's JSON answers to the page (its data), read as they pass: a route of its own,
 * as Chromium may have dropped an answer's body by the time a `response` event asks for it.
 */
async function serverData(page: Page): Promise<Set<string>> {
  const strings = new Set<string>();
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      const response = await route.fetch();
      if (response.headers()['content-type']?.includes('json'))
        for (const text of stringsOf(await response.json()))
          if (/\p{L}.*\p{L}/u.test(text)) strings.add(text);
      await route.fulfill({ response });
    },
  );
  return strings;
}

/** A text with the marker spans taken out, innermost first, and a marker left open or closed with its part. */
function withoutMarkers(text: string): string {
  const span = new RegExp(`${PSEUDO_OPEN}[^${PSEUDO_OPEN}${PSEUDO_CLOSE}]*${PSEUDO_CLOSE}`, 'g');
  let rest = text;
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(span, ' ');
  }
  return rest.replace(new RegExp(`${PSEUDO_OPEN}.*$`), ' ').replace(new RegExp(`^.*${PSEUDO_CLOSE}`), ' ');
}

/** What is left of a text once its markers and its data are out: a letter here bypassed the catalogues. */
function bypassing(text: string, data: readonly string[]): string {
  let rest = withoutMarkers(text);
  for (const value of data) rest = rest.split(value).join(' ');
  rest = rest.replace(/\S*\d\S*/g, ' ');
  return /\p{L}/u.test(rest) ? rest.replace(/\s+/g, ' ').trim() : '';
}

/** The visible text nodes of the page and its aria-label, placeholder, title and alt values (`where`). */
async function shownTexts(page: Page): Promise<{ text: string; where: string }[]> {
  return page.evaluate(() => {
    const shown: { text: string; where: string }[] = [];
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });
    const nodes = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (text && parent && !parent.closest('script, style, option') && visible(parent))
        shown.push({ text, where: 'text' });
    }
    // A select shows its chosen option only.
    for (const select of document.querySelectorAll('select'))
      if (visible(select))
        shown.push({ text: select.selectedOptions[0]?.textContent ?? '', where: 'select' });
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
      if (!visible(el)) continue;
      for (const where of ['aria-label', 'placeholder', 'title', 'alt']) {
        const text = el.getAttribute(where);
        if (text) shown.push({ text, where });
      }
    }
    return shown;
  });
}

/** The page scrolls sideways, or a button's text is cut off. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement;
    if (root && root.scrollWidth > root.clientWidth)
      found.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth} px)`);
    for (const button of document.querySelectorAll<HTMLElement>('button, [role="button"]'))
      if (button.checkVisibility() && button.scrollWidth > button.clientWidth + 1)
        found.push(`a clipped button: ${button.textContent?.trim()}`);
    return found;
  });
}

interface Look {
  name: string;
  show: View['show'];
  flash?: boolean;
  /** What the test scanned or typed here (data: not a text of the app's). */
  typed?: string[];
}

/** A scan the handheld refuses itself: longer than any code (200 characters), in any scan field. */
const TOO_LONG = `X${'0'.repeat(200)}`;

/** A scan into the screen's first field, refused: the banner says why. */
async function refusedScan(page: Page, path: string, heading: string, field: string, code: string) {
  await open(page, path, heading);
  await scanInto(page, page.getByLabel(field, { exact: true }), code);
  await expect(page.getByRole('alert')).toBeVisible();
}

/** A scan where the screen takes none (yet), refused by the scan router: the banner says why. */
async function refusedAnywhere(page: Page, code: string) {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toBeVisible();
}

/**
 * On each capture screen a refusal by the server (an unknown note or receipt) or a lookup that found
 * nothing (an unknown location or article: the handheld's words, SPEC §7), and a scan the handheld refuses
 * before asking anyone (too long, not digits, nothing to scan here).
 */
const refusals = (): Look[] => [
  {
    name: 'menu: nothing is scanned here',
    typed: ['A-01-01-01'],
    show: async (page) => {
      await page.goto('/');
      await expect(page.getByRole('navigation', { name: texts.app.mainMenu })).toBeVisible();
      await refusedAnywhere(page, 'A-01-01-01');
    },
  },
  {
    name: 'inventur: a location scanned as the amount',
    show: async (page) => {
      await open(page, '/inventur', texts.menu.inventur);
      await scanInto(page, page.getByLabel(texts.inventur.location), 'A-01-01-02');
      await scanInto(page, page.getByLabel(texts.inventur.article), '100001');
      await scanInto(page, page.getByLabel(texts.inventur.amount), 'A-01-01-01');
      await expect(page.getByRole('alert')).toBeVisible();
    },
  },
  // A scan into a screen's first field: what it is, the screen, its heading and field, the code.
  ...(
    [
      ['an unknown location', 'inventur', texts.menu.inventur, texts.inventur.location, 'X-99-99'],
      ['an unknown location', 'umbuchung', texts.menu.umbuchung, texts.umbuchung.from, 'X-99-99'],
      ['a code too long', 'umbuchung', texts.menu.umbuchung, texts.umbuchung.from, TOO_LONG],
      [
        'an unknown article',
        'artikelumlagern',
        texts.menu.artikelumlagern,
        texts.umlagern.article,
        'UNBEKANNT',
      ],
      ['a code too long', 'artikelumlagern', texts.menu.artikelumlagern, texts.umlagern.article, TOO_LONG],
      ['an unknown location', 'lagercheck', texts.menu.lagercheck, texts.lagercheck.location, 'X-99-99'],
      ['an unknown article', 'wmsretoure', texts.menu.wmsretoure, texts.wmsretoure.article, 'UNBEKANNT'],
      ['an unknown note', 'paketinhalt', texts.menu.paketinhalt, texts.paketinhalt.noteLabel, 'LS999999'],
      ['a code too long', 'paketinhalt', texts.menu.paketinhalt, texts.paketinhalt.noteLabel, TOO_LONG],
      [
        'an unknown note',
        'kartonagenerfassung',
        texts.menu.kartonagenerfassung,
        texts.paketinhalt.noteLabel,
        'LS999999',
      ],
      ['an unknown note', 'batch', texts.menu.batch, texts.batch.noteLabel, 'LS999999'],
      ['not six digits', 'batcherfassung', texts.menu.batcherfassung, texts.batch.label, '1234567'],
      ['a code too long', 'retoure', texts.menu.retoure, texts.retoure.tracking, TOO_LONG],
      ['a code too long', 'paketausgang', texts.menu.paketausgang, texts.paketausgang.tracking, TOO_LONG],
      ['an unknown receipt', 'wareneingang', texts.menu.wareneingang, wareneingangTexts.receipt, 'WE999999'],
      ['a code too long', 'wareneingang', texts.menu.wareneingang, wareneingangTexts.receipt, TOO_LONG],
      [
        'an unknown note',
        'kommissionierung',
        texts.menu.kommissionierung,
        kommissionierungTexts.noteLabel,
        'LS999999',
      ],
      [
        'a code too long',
        'kommissionierung',
        texts.menu.kommissionierung,
        kommissionierungTexts.noteLabel,
        TOO_LONG,
      ],
    ] as const
  ).map(([what, path, heading, field, code]) => ({
    name: `${path}: ${what}`,
    typed: [code],
    show: (page: Page) => refusedScan(page, `/${path}`, heading, field, code),
  })),
  // Where the screen takes no scan yet: the scan router refuses it.
  ...(
    [
      ['no option chosen', '/container', texts.menu.container, '123456'],
      [
        'no task taken (or another location than asked)',
        '/inventur?zaehlauftrag',
        texts.menu.inventur,
        'X-99-99',
      ],
      ['a cart scanned before "Neu"', '/zollpaket', texts.menu.zollpaket, 'ZW04'],
    ] as const
  ).map(([what, path, heading, code]) => ({
    name: `${path}: ${what}`,
    typed: [code],
    show: async (page: Page) => {
      await open(page, path, heading);
      await refusedAnywhere(page, code);
    },
  })),
];

/**
 * Views whose last tap fails in the pseudo-language at 360 px (decision 35 lists them): Paketinhalt's table
 * runs wider than the screen and lies over 'Klärfall'; Kartonagenerfassung's 'mehr' times out likewise.
 */
const PUSHED_UNDER = ['paketinhalt-klaerfall', 'kartonagenerfassung'];

/** Shows each look and notes what bypasses the catalogues (failed on) and what overflows (annotated). */
async function walk(page: Page, looks: Look[], server: Set<string>): Promise<string[]> {
  const bypasses: string[] = [];
  const note = (look: Look, found: string) =>
    test
      .info()
      .annotations.push({ type: 'overflow (pseudo, ~40 % longer)', description: `${look.name}: ${found}` });
  for (const look of looks) {
    try {
      // A success view hides itself after 1–2 s: the page's timers stand still from just before it comes up.
      await look.show(page, () => page.clock.pauseAt(Date.now() + 100));
    } catch (error) {
      // A control the longer texts pushed under another one (a layout finding, as overflow is): noted, and
      // what the screen shows so far is still read. Only where known: any other view must be reached.
      if (!PUSHED_UNDER.includes(look.name)) throw error;
      note(look, `not reached: ${String(error).split('\n')[0]}`);
    }
    const shown = await shownTexts(page);
    const data = [...(look.typed ?? []), ...DATA, ...server].sort((a, b) => b.length - a.length);
    for (const { text, where } of shown) {
      const left = bypassing(text, data);
      if (left) bypasses.push(`${look.name}: ${where} «${text}» (left: ${left})`);
    }
    for (const found of await overflow(page)) note(look, found);
    if (look.flash) await page.clock.resume();
  }
  return [...new Set(bypasses)];
}

test.beforeAll(() => useLanguage('qps'));
test.afterAll(() => useLanguage('de'));

test.beforeEach(async ({ page }) => {
  // The device's language, as a developer sets it: never offered in the switch.
  await page.addInitScript(() => localStorage.setItem('lagerscannerSprache', 'qps'));
  await page.clock.install(); // runs on as usual until a success view stops it
});

test('every call says qps, and the login screen offers no pseudo-language', async ({ page }) => {
  const heard: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) heard.push(request.headers()['x-language']);
  });
  await loginWithPassword(page);
  await page.goto('/inventur');
  await expect(page.getByRole('heading', { level: 1, name: texts.menu.inventur })).toBeVisible();
  expect(heard.length).toBeGreaterThan(0);
  expect(new Set(heard)).toEqual(new Set(['qps']));
  await page.getByRole('button', { name: texts.app.logout(demo.passwordUser.name) }).click();
  const choice = page.getByRole('combobox', { name: texts.login.language });
  await expect(choice.locator('option')).toHaveText(languages.map((l) => l.name));
});

const groups: { name: string; looks: () => Look[]; loggedIn: boolean }[] = [
  { name: 'the login', looks: () => loggedOutViews, loggedIn: false },
  { name: 'the menus and settings', looks: () => loggedInViews.slice(0, 6), loggedIn: true },
  { name: 'the capture screens', looks: () => loggedInViews.slice(6, 16), loggedIn: true },
  { name: 'the stock screens', looks: () => loggedInViews.slice(16), loggedIn: true },
  { name: 'the refusals on the stock screens', looks: () => refusals().slice(0, 11), loggedIn: true },
  { name: 'the refusals on the shipping screens', looks: () => refusals().slice(11), loggedIn: true },
];

for (const group of groups) {
  test(`${group.name} in the pseudo-language: no text bypasses the catalogues`, async ({ page }) => {
    test.setTimeout(60_000);
    const server = await serverData(page);
    if (group.loggedIn) await loginWithPassword(page);
    page.setDefaultTimeout(7_000); // a control that cannot be reached: noted, not waited for till the end
    expect((await walk(page, group.looks(), server)).join('\n')).toBe('');
  });
}
