// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { setUpKeyboardPage } from './keys.test-support.ts';

/**
 * Burst takeover (`takeover.ts`), the rules the walker (e2e/scan-walker.spec.ts) checks on every screen and state:
 * a burst as left, after a tap on the background, with a button focused; a target that takes no scan; a
 * dialog's question; the card login; an amount that is typed, never scanned; and e2e/wedge.spec.ts's late Enter.
 */

const page = setUpKeyboardPage();

describe('a burst lands where the screen expects the next scan, wherever the focus is', () => {
  it('as left: in the target field its keys go in by themselves and its Enter ends the scan there', async () => {
    await page.expecting('Lagerplatz');
    await page.wedge('A-01-01-01');
    expect(page.got).toEqual(['Lagerplatz A-01-01-01']);
    expect(page.shown).toEqual([]);
  });

  it('after a tap on the background: the burst is typed into the target and ends there', async () => {
    const location = await page.expecting('Lagerplatz');
    page.tap(null);
    expect(document.activeElement).toBe(document.body);
    await page.wedge('A-01-01-01');
    expect(page.got).toEqual(['Lagerplatz A-01-01-01']);
    expect(document.activeElement).toBe(location);
  });

  it('with a button focused: the burst goes to the target, and its Enter never presses the button', async () => {
    await page.expecting('Lagerplatz');
    page.tap(page.button('abmelden'));
    await page.wedge('A-01-01-01');
    expect(page.got).toEqual(['Lagerplatz A-01-01-01']);
    expect(page.clicks).toEqual([]);
  });

  it('leaves a person’s Enter and Space on a button alone: they press it', async () => {
    await page.expecting('Lagerplatz');
    page.tap(page.button('Speichern'));
    page.press('Enter');
    await page.settle(500);
    page.press(' ');
    expect(page.clicks).toEqual(['Speichern', 'Speichern']);
    expect(page.shown).toEqual([]);
  });

  it('refuses a scan out loud where the screen takes none, saying what it expects instead', async () => {
    page.start();
    const save = page.button('Umlagern');
    page.target({ kind: 'none', expects: 'tap “Umlagern”' });
    await page.settle();
    page.tap(save);
    await page.wedge('A-01-01-02');
    expect(page.shown).toEqual(['refused: tap “Umlagern”']);
    expect(page.clicks).toEqual([]);
  });

  it('refuses a scan on a screen without any target (a menu)', async () => {
    page.start();
    await page.wedge('A-01-01-01');
    expect(page.shown).toEqual(['refused: nothing to scan here']);
  });

  it('refuses a scan when a scan field kept the focus but the screen takes no scan (a closed cart’s note)', async () => {
    page.start();
    const note = page.scanField('Lieferschein');
    page.fieldTarget('Lieferschein', note).update({ kind: 'none', expects: 'wait' });
    page.tap(note);
    await page.wedge('LS100001');
    expect(page.shown).toEqual(['refused: wait']);
    expect(page.got).toEqual([]);
    expect(note.value).toBe('');
  });

  it('refuses a scan while a dialog asks, over the screen’s field, and never answers the dialog', async () => {
    const location = await page.expecting('Lagerplatz');
    await page.question('Buchen');
    await page.wedge('100001');
    expect(page.shown).toEqual(['refused: answer the question first']);
    expect(page.clicks).toEqual([]);
    expect(location.value).toBe('');
  });

  it('ends a burst with its late Enter (120 ms): it never answers the dialog; a person’s Enter later does', async () => {
    page.start();
    await page.question('Umbuchen');
    await page.wedge('A-01-01-01', { lateBy: 120 });
    expect(page.shown).toEqual(['refused: answer the question first']);
    expect(page.clicks).toEqual([]);
    await page.settle(400);
    page.press('Enter');
    expect(page.clicks).toEqual(['Umbuchen']);
  });

  it('hands a receiver (the card login on the password form) the whole burst taken out of a name field', async () => {
    page.start();
    page.cardLogin();
    const name = page.personField('Name');
    page.tap(name);
    await page.wedge('DEMOKARTE'.repeat(3));
    expect(page.got).toEqual([`Karte ${'DEMOKARTE'.repeat(3)}`]);
    expect(name.value).toBe('');
  });

  it('leaves a fast typist’s short word in a name field, with its Enter', async () => {
    page.start();
    page.cardLogin();
    const name = page.personField('Name');
    page.tap(name);
    await page.wedge('leitung');
    expect(page.got).toEqual(['Name leitung']);
    expect(name.value).toBe('leitung');
  });

  it('takes a scanner’s burst back out of a field for a person and refuses it where nothing is scanned', async () => {
    page.start();
    const deviceName = page.personField('Gerätename');
    deviceName.value = 'Gerät 1';
    page.tap(deviceName);
    await page.wedge('A-01-01-01');
    expect(page.shown).toEqual(['refused: nothing to scan here']);
    expect(deviceName.value).toBe('Gerät 1');
    expect(page.got).toEqual([]);
  });

  it('hands a receiver a burst without Enter once its keys stopped coming', async () => {
    page.start();
    page.cardLogin();
    await page.wedge('KARTE-4711', { end: null });
    expect(page.got).toEqual([]);
    await page.settle(300);
    expect(page.got).toEqual(['Karte KARTE-4711']);
  });

  it('types the GS1 group separator a wedge sends as a key of its own into the scan field', async () => {
    await page.expecting('Artikel');
    await page.wedge('10AB\u001d17271200');
    expect(page.got).toEqual(['Artikel 10AB\u001d17271200']);
  });
});

describe('an amount is typed, never scanned', () => {
  const amountExpected = (max?: number) => page.expecting('Menge', 'digits', max);

  it.each([
    ['a code with letters', 'A-01-01-01', 'Enter', 'refused: Menge: digits only'],
    ['a scanner’s burst of digits (an article number)', '100001', 'Enter', 'refused: Menge: type it in'],
    ['a scanner’s burst of digits ended by Tab', '4006381333931', 'Tab', 'refused: Menge: type it in'],
  ])('refuses %s scanned into the amount, and takes it back out', async (_, code, end, refusal) => {
    const amount = await amountExpected();
    await page.wedge(code, { end });
    expect(page.shown).toEqual([refusal]);
    expect(amount.value).toBe('');
    expect(page.got).toEqual([]);
    expect(document.activeElement).toBe(amount);
  });

  it('takes digits a person types (80 ms a key) as the amount, and its Enter counts', async () => {
    const amount = await amountExpected();
    await page.typeSlowly('1234');
    expect(page.got).toEqual(['Menge 1234']);
    expect(amount.value).toBe('1234');
    expect(page.shown).toEqual([]);
  });

  it('leaves digits whose Enter came more than 50 ms late in the amount, as a person’s (decision 13)', async () => {
    const amount = await amountExpected();
    await page.wedge('100001', { lateBy: 120 });
    expect(page.got).toEqual(['Menge 100001']);
    expect(amount.value).toBe('100001');
    expect(page.shown).toEqual([]);
  });

  it('takes 1 to 3 digits typed fast as an amount', async () => {
    await amountExpected();
    await page.wedge('120');
    expect(page.got).toEqual(['Menge 120']);
    expect(page.shown).toEqual([]);
  });

  it('refuses the key that would go above the most the amount takes', async () => {
    const amount = await amountExpected(500);
    await page.typeSlowly('600', null);
    expect(page.shown).toEqual(['refused: Menge: at most 500']);
    expect(amount.value).toBe('60');
  });

  it('sends a scan into an amount the worker tapped whole to the target (WMS-Retoure: the article)', async () => {
    await page.expecting('Artikel');
    const amount = page.amountField('Menge');
    page.tap(amount);
    await page.wedge('100001');
    expect(page.got).toEqual(['Artikel 100001']);
    expect(amount.value).toBe('');
    await page.settle(500);
    page.tap(amount);
    await page.wedge('A-01');
    expect(page.got).toEqual(['Artikel 100001', 'Artikel A-01']);
    expect(page.shown).toEqual([]);
  });
});
