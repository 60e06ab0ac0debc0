import type { Page } from '@playwright/test';
import { languageCodes } from '../src/contract/i18n/languages.ts';
import { loginWithPassword } from './support/helpers.ts';
import { setDeviceLanguage, setWorkerLanguage, useLanguage } from './support/language.ts';
import { expect, test } from './support/test.ts';
import { loggedInViews, loggedOutViews, type View } from './support/views.ts';

/**
 * Every screen fits at 360×640 in every language (issue 43): Polish and Turkish run long. The device's choice
 * is X (the login screen before anyone is known), the demo worker reads X too (set on the server), the views
 * look for X's words (`useLanguage`), and after each view the page must not scroll sideways nor a button,
 * heading, label or table cell clip its text.
 */

/** What does not fit: the page scrolling sideways, a button or heading whose text is wider than its box. */
async function misfits(page: Page, view: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement;
    if (root && root.scrollWidth > root.clientWidth + 1)
      out.push(`the page is ${root.scrollWidth} px wide in ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href], h1, h2, label, th, td')) {
      if (el.getClientRects().length === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto')
        out.push(
          `${el.tagName.toLowerCase()} "${el.textContent?.trim()}" ${el.scrollWidth} px in ${el.clientWidth}`,
        );
    }
    return out;
  });
  return found.map((f) => `${view}: ${f}`);
}

const groups: View[][] = [];
for (let i = 0; i < loggedInViews.length; i += 6) groups.push(loggedInViews.slice(i, i + 6));

for (const language of languageCodes) {
  test.describe(`in ${language}`, () => {
    test.beforeEach(async ({ page, request }) => {
      await setWorkerLanguage(request, language);
      await useLanguage(language);
      await setDeviceLanguage(page, language);
    });
    test.afterEach(async ({ request }) => {
      await useLanguage('de');
      await setWorkerLanguage(request, 'de');
    });

    test(`before login (${loggedOutViews.map((v) => v.name).join(', ')}): nothing wider than 360 px, no button clipped`, async ({
      page,
    }) => {
      // The device's choice is X: the login screen and its refusal come in X before anyone is known.
      const findings: string[] = [];
      for (const view of loggedOutViews) {
        await view.show(page);
        findings.push(...(await misfits(page, view.name)));
      }
      expect(findings.join('\n')).toBe('');
    });

    for (const views of groups) {
      test(`${views.map((v) => v.name).join(', ')}: nothing wider than 360 px, no button clipped`, async ({
        page,
      }) => {
        test.setTimeout(120_000);
        await loginWithPassword(page);
        const findings: string[] = [];
        for (const view of views) {
          await view.show(page);
          findings.push(...(await misfits(page, view.name)));
        }
        expect(findings.join('\n')).toBe('');
      });
    }
  });
}
