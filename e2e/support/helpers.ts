import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { texts } from '../../src/contract/texts.ts';

/** The demo card (DESIGN §7): 'DEMOKARTE' 25 times, 225 characters. */
export const DEMO_CARD = 'DEMOKARTE'.repeat(25);

/** Logs in on the login screen, its words read in the language the test looks for (language.ts). */
export async function loginWithPassword(
  page: Page,
  username = 'demo',
  password = 'demo',
  name = 'Demo Nutzer',
): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: texts.login.toPassword }).click();
  await page.getByLabel(texts.login.username).fill(username);
  await page.getByLabel(texts.login.password).fill(password);
  await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
  await expect(page.getByRole('button', { name: texts.app.logout(name) })).toBeVisible();
}

/** The demo's shift lead and IT admin (DESIGN §9). */
export const LEAD = { username: 'leitung', password: 'leitung', name: 'Schicht Leitung' } as const;
export const ADMIN = { username: 'admin', password: 'admin', name: 'IT Admin' } as const;

export async function loginAs(page: Page, user: { username: string; password: string; name: string }) {
  await loginWithPassword(page, user.username, user.password, user.name);
}

/** Ends the page's session on the server, as an expired or revoked login would. */
export async function revokeSessionOnServer(page: Page): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const res = await page.request.get('/api/user/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
}

/** A keyboard-wedge scanner: the whole code as keystrokes with no delay, then Enter. */
export async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** Sets the stock of an article on a location through the API (an inventory count), for a known start. */
export async function setStock(page: Page, location: string, article: string, amount: number): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('vmAccessKey'));
  const headers = { authorization: `Bearer ${token}` };
  const lp = await (await page.request.get(`/api/inventur/findlp/${location}`, { headers })).json();
  const art = await (await page.request.get(`/api/inventur/findarticle/${article}`, { headers })).json();
  const res = await page.request.post('/api/inventur/', {
    headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
    data: { lp: lp.id, article: art.id, amount },
  });
  expect(res.status()).toBe(200);
}

export async function openBetaScreen(page: Page, label: string): Promise<void> {
  await loginWithPassword(page);
  await page.getByRole('link', { name: texts.app.beta }).click();
  await page.getByRole('link', { name: label, exact: true }).click();
}

/**
 * Waits until the field has the focus — as a worker sees the cursor move — and scans into it. (A scanner
 * that does not wait is e2e/wedge.spec.ts.)
 */
export async function scanInto(page: Page, field: Locator, code: string): Promise<void> {
  await expect(field).toBeFocused();
  await scan(page, code);
}

/**
 * A keyboard wedge at a steady 2 ms per character: each keydown carries the time the scanner sent it, as a
 * real wedge's events carry the time the device got them — Playwright's `keyboard.type` stamps a key when it
 * gets round to sending it, on this busy machine 5–15 ms apart, which the self-test rightly calls slow.
 * ASCII 29 goes in as text, as a wedge inserts it. Then Enter (or Tab, for a scanner set up so) — `lateBy`
 * ms after the last character, for a scanner set to wait before its suffix (or a busy device), else 2 ms.
 * `tapFirst`: tapped right before the first key (a menu entry: a scan right after opening a screen).
 */
export async function wedgeScan(
  page: Page,
  text: string,
  terminator: 'Enter' | 'Tab' = 'Enter',
  { lateBy = 0, tapFirst }: { lateBy?: number; tapFirst?: Locator } = {},
): Promise<void> {
  // Where to tap is read before the session opens: from the tap on, nothing waits between it and the keys.
  await tapFirst?.scrollIntoViewIfNeeded();
  const box = tapFirst ? await tapFirst.boundingBox() : null;
  if (tapFirst && !box) throw new Error('wedgeScan: nothing to tap (not on screen)');
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  let step = 0;
  const timestamp = () => start + (step++ * 2) / 1000;
  const keys: (() => Promise<unknown>)[] = [];
  for (const c of text) {
    if (c === '\u001d') {
      keys.push(() => cdp.send('Input.insertText', { text: c }));
      continue;
    }
    const at = timestamp();
    keys.push(
      () =>
        cdp.send('Input.dispatchKeyEvent', {
          type: 'keyDown',
          key: c,
          text: c,
          unmodifiedText: c,
          timestamp: at,
        }),
      () => cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: c, timestamp: at }),
    );
  }
  const end = {
    key: terminator,
    code: terminator,
    windowsVirtualKeyCode: terminator === 'Enter' ? 13 : 9,
    timestamp: timestamp() + lateBy / 1000,
  };
  // Enter carries its text, as a keyboard's does: a form without a handler of its own submits on it.
  const enterText = terminator === 'Enter' ? { text: '\r', unmodifiedText: '\r' } : {};
  keys.push(
    () => cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...end, ...enterText }),
    () => cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...end }),
  );
  if (box) {
    // A worker who taps a menu entry and pulls the trigger in one move: the tap and the scan's first key go
    // to the browser together, so the key is handled in the task right after the tap's.
    const at = {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
      button: 'left',
      clickCount: 1,
    } as const;
    await Promise.all([
      cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at }),
      cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at }),
      ...keys.splice(0, 2).map((send) => send()),
    ]);
  }
  for (const send of keys) await send();
  await cdp.detach();
}

/**
 * Records, from the next page load on, every Content-Security-Policy violation and every console error or
 * uncaught exception of the page. `violations()` reads what the page saw.
 */
export async function watchPageProblems(page: Page): Promise<{
  violations(): Promise<string[]>;
  consoleErrors: string[];
}> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return {
    violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    consoleErrors,
  };
}

/**
 * A delivery note of this test's own, brought in as the office brings notes: a CSV through the Leitstand's
 * import (as the demo admin). A new number each call, so a test that reports or packs it can run again and
 * again (`--repeat-each`) without finding it used by an earlier run. Answers its Belegnr.
 */
export async function importDeliveryNote(
  request: APIRequestContext,
  lines: [nummer: string, menge: number][] = [
    ['100001', 2],
    ['100003', 8],
  ],
): Promise<string> {
  const belegnr = `LS9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const csv = [
    'Belegnr;EU;Versandart;Gravur;Batch;Projekt;Artikelnummer;Menge',
    ...lines.map(([nummer, menge]) => `${belegnr};ja;DHL037;nein;123456;Onlineshop;${nummer};${menge}`),
  ].join('\n');
  const login = await request.post('/api/user/login', {
    data: { username: ADMIN.username, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const res = await request.post('/api/admin/import/delivery-notes', {
    headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
    data: { fileName: `${belegnr}.csv`, content: Buffer.from(csv).toString('base64') },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toMatchObject({ imported: true, written: lines.length });
  await request.get('/api/user/logout', { headers });
  return belegnr;
}
