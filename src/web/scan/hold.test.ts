// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { setUpKeyboardPage } from './keys.test-support.ts';
import { isReplayed, pressedAt } from './router.ts';

/**
 * Key holding (`hold.ts`): keys that come while an answer is on its way are typed out afterwards, a scan at a
 * time, into the target of the state the answer leads to (e2e/slow-answers.spec.ts, e2e/wedge.spec.ts).
 */

const page = setUpKeyboardPage();

describe('keys held while an answer is on its way', () => {
  const afterPaint = (go: () => void) => setTimeout(go, 0);
  /** A call on its way (a lookup, a booking): keys are held until the test answers it (the returned function). */
  function onItsWay(): () => void {
    let answer = () => {};
    page.router.holdKeysUntil(
      new Promise<void>((resolve) => {
        answer = resolve;
      }),
      afterPaint,
    );
    return answer;
  }

  it('types a scan that came during a lookup into the field the answer leads to', async () => {
    const location = await page.expecting('Lagerplatz');
    const article = page.scanField('Artikel');
    const answer = onItsWay();
    await page.wedge('100001');
    expect(location.value).toBe('');
    page.fieldTarget('Artikel', article);
    answer();
    await page.settle(10);
    expect(page.got).toEqual(['Artikel 100001']);
    expect(document.activeElement).toBe(article);
  });

  it('types held scans one at a time: the next waits until the screen has taken the one before', async () => {
    const location = await page.expecting('Lagerplatz');
    const article = page.scanField('Artikel');
    // The screen moves on to the article a moment after the location's Enter (as a render does).
    location.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') setTimeout(() => page.fieldTarget('Artikel', article), 0);
    });
    const answer = onItsWay();
    await page.wedge('A-01-01-01');
    await page.wedge('100001');
    answer();
    await page.settle(20);
    expect(page.got).toEqual(['Lagerplatz A-01-01-01', 'Artikel 100001']);
  });

  it('refuses a held scanner’s burst of digits where the amount is expected; held slow digits are the amount', async () => {
    const amount = await page.expecting('Menge', 'digits');
    const first = onItsWay();
    await page.wedge('100001');
    first();
    await page.settle(10);
    expect(page.shown).toEqual(['refused: Menge: type it in']);
    expect(amount.value).toBe('');
    const second = onItsWay();
    await page.typeSlowly('12');
    second();
    await page.settle(10);
    expect(page.got).toEqual(['Menge 12']);
  });

  it('types a held key out with the time it was pressed, marked as typed out again', async () => {
    const location = await page.expecting('Lagerplatz');
    const enters: { replayed: boolean; at: number }[] = [];
    location.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') enters.push({ replayed: isReplayed(event), at: pressedAt(event) });
    });
    const answer = onItsWay();
    await page.wedge('A-01');
    const pressed = performance.now();
    await page.settle(1000);
    answer();
    await page.settle(10);
    expect(enters).toEqual([{ replayed: true, at: pressed }]);
  });

  it('ends a hold when the worker taps another field before the answer: what they type is for that field', async () => {
    const location = await page.expecting('Lagerplatz');
    const note = page.personField('Notiz');
    page.router.holdKeysWhile(new Promise(() => {}), location, afterPaint);
    page.tap(note);
    await page.typeSlowly('ok', null);
    expect(note.value).toBe('ok');
  });

  it('waits for a held burst still coming, so it is never split between two targets', async () => {
    const location = await page.expecting('Lagerplatz');
    const answer = onItsWay();
    await page.wedge('A-01-', { end: null });
    answer();
    await page.settle(2);
    expect(location.value).toBe('');
    await page.wedge('01-01');
    await page.settle(100);
    expect(page.got).toEqual(['Lagerplatz A-01-01-01']);
  });
  describe('a tap while scanned keys are held', () => {
    /** 'Erfassen': what the scan field holds when the tap reaches the screen. */
    function submitButton(field: HTMLInputElement) {
      const submit = page.button('Erfassen');
      submit.addEventListener('click', () => page.got.push(`Erfassen with '${field.value}'`));
      return submit;
    }

    it('waits until the scan made before it is typed out and on screen (a tap never overtakes a scan)', async () => {
      const plombe = await page.expecting('Plombe', 'scan');
      plombe.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') plombe.value = 'PL-1 taken';
      });
      const submit = submitButton(plombe);
      const answer = onItsWay();
      await page.wedge('PL-1');
      submit.click();
      expect(page.clicks).toEqual([]);
      answer();
      await page.settle(10);
      expect(page.got).toEqual(['Plombe PL-1', "Erfassen with 'PL-1 taken'"]);
      expect(page.clicks).toEqual(['Erfassen']);
    });

    it('waits for the answer a typed-out scan started in turn', async () => {
      const plombe = await page.expecting('Plombe', 'scan');
      const submit = submitButton(plombe);
      let second = () => {};
      plombe.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') second = onItsWay();
      });
      const first = onItsWay();
      await page.wedge('PL-1');
      submit.click();
      first();
      await page.settle(10);
      expect(page.got).toEqual(['Plombe PL-1']);
      second();
      await page.settle(10);
      expect(page.got).toEqual(['Plombe PL-1', "Erfassen with ''"]);
    });

    it('goes on at once after a typed-out scan whose screen started a call before its paint (CI: a Fehlmenge tap that never opened its question)', async () => {
      const plombe = await page.expecting('Plombe', 'scan');
      const submit = submitButton(plombe);
      let second = () => {};
      // The screen starts its lookup a moment after the Enter (as an effect does): before the paint the
      // typed-out scan waits for.
      plombe.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') setTimeout(() => (second = onItsWay()), 0);
      });
      const first = onItsWay();
      await page.wedge('PL-1');
      first();
      await page.settle(10);
      second();
      await page.settle(10);
      expect(page.got).toEqual(['Plombe PL-1']);
      submit.click();
      await page.settle(10);
      expect(page.got).toEqual(['Plombe PL-1', "Erfassen with ''"]);
    });

    it('goes on at once when nothing is held, even while an answer is on its way', async () => {
      const plombe = await page.expecting('Plombe', 'scan');
      const submit = submitButton(plombe);
      const answer = onItsWay();
      submit.click();
      expect(page.got).toEqual(["Erfassen with ''"]);
      answer();
      await page.settle(10);
      expect(page.clicks).toEqual(['Erfassen']);
    });
  });
});
