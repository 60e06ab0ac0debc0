// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { setUpKeyboardPage } from './keys.test-support.ts';

/** Targets and focus (`targets.ts`): the focus follows the current target, a dialog's over the screen's. */

const page = setUpKeyboardPage();

describe('targets and focus', () => {
  it('gives the current target’s field the focus: the latest of a level, a dialog’s over the screen’s', async () => {
    page.start();
    const first = page.scanField('Lagerplatz');
    const second = page.scanField('Artikel');
    const third = page.scanField('Menge');
    page.fieldTarget('Lagerplatz', first);
    await page.settle();
    expect(document.activeElement).toBe(first);
    const article = page.fieldTarget('Artikel', second);
    await page.settle();
    expect(document.activeElement).toBe(second);
    article.remove();
    await page.settle();
    expect(document.activeElement).toBe(first);
    const question = page.target({ kind: 'none', expects: 'answer first' }, 'dialog');
    page.fieldTarget('Menge', third);
    await page.settle();
    expect(document.activeElement).toBe(first);
    question.remove();
    await page.settle();
    expect(document.activeElement).toBe(third);
  });

  it('focuses a target whose field could take no keys yet once it can (update)', async () => {
    page.start();
    const field = page.scanField('Lagerplatz');
    field.disabled = true;
    const handle = page.fieldTarget('Lagerplatz', field);
    await page.settle();
    expect(document.activeElement).not.toBe(field);
    field.disabled = false;
    handle.update({ kind: 'field', label: 'Lagerplatz', input: () => field });
    await page.settle();
    expect(document.activeElement).toBe(field);
  });

  it('sends the focus back to the target after a scan in a field the worker tapped', async () => {
    const location = await page.expecting('Lagerplatz');
    const other = page.scanField('Charge');
    page.tap(other);
    await page.wedge('CH-1');
    expect(page.got).toEqual(['Charge CH-1']);
    expect(document.activeElement).toBe(other);
    page.router.refocusTarget();
    await page.settle();
    expect(document.activeElement).toBe(location);
  });
});
