import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { loginWithPassword, scanInto, setStock } from './support/helpers.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';
import { loggedInViews, loggedOutViews, type View } from './support/views.ts';

/**
 * Issue 8 point 6: every screen readable in a bright hall and usable without a mouse. axe-core checks
 * WCAG 2.1 A/AA plus the enhanced (AAA, 7:1) text contrast; then each button, link and form control
 * must be at least 44×44 CSS px and show a focus ring when reached by the keyboard.
 */

type Finding = string;

/**
 * A success view hides itself after 1–2 s, sooner than axe reads a page here: the check stops the page's
 * clock (Playwright's fake timers) just before it comes up. axe waits on timers itself, so it gets the real
 * ones, saved before the fake clock replaced them.
 */
const saveRealTimers = () => {
  const w = window as unknown as { realTimers: unknown };
  w.realTimers = {
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
  };
};
const axeSource = `(function ({ setTimeout, clearTimeout }) {
${fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}
}).call(window, window.realTimers ?? window);`;

/** axe on the page as it is: WCAG 2 A/AA, 2.1 AA, and the 7:1 contrast rule of AAA. */
async function axeFindings(page: Page, view: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page, axeSource })
    .options({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
      rules: { 'color-contrast-enhanced': { enabled: true } },
    })
    .setLegacyMode() // one axe.run in the page; the default opens a blank page per check to merge frames (none here)
    .analyze();
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable];
  // The AAA rule must really have run, or a pass here would prove nothing about 7:1.
  expect(ran.map((r) => r.id)).toContain('color-contrast-enhanced');
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${view}: [${v.impact}] ${v.id} — ${v.help}\n    at ${n.target.join(' ')}\n    ${n.failureSummary}`,
      ),
    );
}

/** Every visible button, link and form control smaller than 44×44 CSS px. */
async function smallTargets(page: Page, view: string): Promise<Finding[]> {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [role="button"]')]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent?.trim()}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  );
  return small.map((s) => `${view}: touch target below 44×44 px: ${s}`);
}

/**
 * Tabs once round the page and checks that each control reached shows a focus ring (an outline of 2 px or
 * more, or a box shadow, that it does not have unfocused) and that Tab reaches every enabled control on
 * screen — inside an open modal dialog, every one of the dialog's.
 */
async function unmarkedFocus(page: Page, view: string): Promise<Finding[]> {
  const total = await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const ring = (el: Element) => {
      const s = getComputedStyle(el);
      return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} | ${s.boxShadow}`;
    };
    const scope = document.querySelector('dialog:modal') ?? document;
    const controls = [
      ...scope.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [tabindex]'),
    ].filter((el) => el.getClientRects().length > 0 && !el.matches(':disabled') && el.tabIndex >= 0);
    const walk = {
      ring,
      unfocused: new Map(controls.map((el) => [el, ring(el)])),
      reached: new Set<Element>(),
    };
    (window as unknown as { focusWalk: typeof walk }).focusWalk = walk;
    return controls.length;
  });
  const findings: Finding[] = [];
  for (let i = 0; i < total + 3; i++) {
    await page.keyboard.press('Tab');
    const step = await page.evaluate(() => {
      const walk = (
        window as unknown as {
          focusWalk: {
            ring: (el: Element) => string;
            unfocused: Map<Element, string>;
            reached: Set<Element>;
          };
        }
      ).focusWalk;
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return { done: false, problem: null };
      if (walk.reached.has(el)) return { done: true, problem: null }; // once round
      walk.reached.add(el);
      const s = getComputedStyle(el);
      const ring = walk.ring(el);
      const shown =
        (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== 'none';
      if (shown && el.matches(':focus-visible') && ring !== walk.unfocused.get(el))
        return { done: false, problem: null };
      const name = `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent?.trim()}"`;
      return {
        done: false,
        problem: `no visible focus ring on ${name} (focused: ${ring}; unfocused: ${walk.unfocused.get(el)})`,
      };
    });
    if (step.problem) findings.push(`${view}: ${step.problem}`);
    if (step.done) break;
  }
  const missed = await page.evaluate(() => {
    const walk = (
      window as unknown as { focusWalk: { unfocused: Map<Element, string>; reached: Set<Element> } }
    ).focusWalk;
    return [...walk.unfocused.keys()]
      .filter((el) => !walk.reached.has(el))
      .map(
        (el) =>
          `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent?.trim()}"`,
      );
  });
  for (const name of missed) findings.push(`${view}: Tab never reaches ${name}`);
  return findings;
}

async function check(page: Page, view: View): Promise<Finding[]> {
  // A success view hides itself after 1–2 s: the page's timers stand still from just before it comes up.
  await view.show(page, () => page.clock.pauseAt(Date.now() + 100));
  const findings = [...(await axeFindings(page, view.name)), ...(await smallTargets(page, view.name))];
  if (view.flash) await page.clock.resume();
  else findings.push(...(await unmarkedFocus(page, view.name)));
  return findings;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(saveRealTimers);
  await page.clock.install(); // runs on as usual until a success view stops it
});

/** Five screens a test: one login each, and each test well inside its time limit on a busy machine. */
const groups = [loggedOutViews];
for (let i = 0; i < loggedInViews.length; i += 5) groups.push(loggedInViews.slice(i, i + 5));

for (const views of groups) {
  test(`${views.map((v) => v.name).join(', ')}: axe (WCAG 2.1 AA + 7:1 contrast), targets ≥ 44 px, visible focus`, async ({
    page,
  }) => {
    if (views !== loggedOutViews) await loginWithPassword(page);
    const findings: Finding[] = [];
    for (const view of views) findings.push(...(await check(page, view)));
    expect(findings.join('\n')).toBe('');
  });
}

/** Presses Tab until the control has the focus, as someone without a mouse would; fails after 30 presses. */
async function tabTo(page: Page, control: Locator): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    if (await control.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${control}`);
}

test('logs in and rebooks an article with the keyboard alone: Tab, Enter and typing, no pointer', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { pointerEvents: number };
    w.pointerEvents = 0;
    window.addEventListener('pointerdown', () => w.pointerEvents++, { capture: true });
  });
  const key = (k: string) => page.keyboard.press(k);
  await page.goto('/');
  await tabTo(page, page.getByRole('button', { name: 'Mit Name und Passwort anmelden' }));
  await key('Enter');
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('demo');
  await key('Tab');
  await page.keyboard.type('demo');
  await key('Enter');
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible();
  await setStock(page, 'A-02-01-01', '100004', 12);
  await setStock(page, 'A-02-01-03', '100004', 0);

  await tabTo(page, page.getByRole('link', { name: 'Beta' }));
  await key('Enter');
  await tabTo(page, page.getByRole('link', { name: 'Artikel umlagern' }));
  await key('Enter');
  await scanInto(page, page.getByLabel('Artikel'), '100004');
  await scanInto(page, page.getByLabel('Lagerplatz', { exact: true }), 'A-02-01-01');
  await expect(page.getByLabel(/^Menge/)).toBeFocused();
  await page.keyboard.type('5');
  await key('Enter');
  await scanInto(page, page.getByLabel('Ziel-Lagerplatz'), 'A-02-01-03');
  // Someone at the keyboard tabs on once the screen has taken the location. A Tab pressed while its answer is
  // on its way is held and typed out after it (as a scanner's keys are), so presses ahead of the answer
  // would walk the focus on past the button once the answer came.
  await expect(page.getByRole('button', { name: 'Ziel-Lagerplatz leeren' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Umlagern', exact: true }));
  await key('Enter');
  const dialog = page.getByRole('dialog', { name: 'Umlagerung bestätigen' });
  await expect(dialog).toContainText('5 × 100004 von A-02-01-01 nach A-02-01-03 umlagern?');
  await expect(dialog.getByRole('button', { name: 'Umlagern' })).toBeFocused();
  await key('Enter');
  await expect(page.getByRole('status')).toHaveText(/Umgelagert!/);

  // Booked: the article's locations now read 7 and 5.
  await scanInto(page, page.getByLabel('Artikel'), '100004');
  const info = page.getByRole('region', { name: 'Lagerplätze des Artikels' });
  await expect(info.getByRole('row', { name: /A-02-01-01/ })).toContainText('7');
  await expect(info.getByRole('row', { name: /A-02-01-03/ })).toContainText('5');
  expect(await page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents)).toBe(0);
});
