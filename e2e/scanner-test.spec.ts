import { loginWithPassword, scan, wedgeScan } from './support/helpers.ts';
import { expect, type Page, test } from './support/test.ts';

const CODE128 = `Zy-1/2_3#4@5"6;7:8'9[0]`;
const GS1 = '010400638133393110TEST42\u001d17271231';
const QR =
  'Lagerscanner Selbsttest, Code 3 von 3: langer QR-Code. Alle Zeichen muessen vollstaendig und in der ' +
  'richtigen Reihenfolge ankommen. 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz Ende.';

async function openSettings(page: Page): Promise<void> {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Einstellungen' }).click();
}

async function openScannerTest(page: Page): Promise<void> {
  await openSettings(page);
  await page.getByRole('link', { name: 'Scanner testen' }).click();
  await expect(page.getByLabel('Hier scannen')).toBeFocused();
}

const result = (page: Page, title: string) => page.getByRole('region', { name: title });

test('the test sheet draws the three codes and prints without the app around it', async ({ page }) => {
  await openSettings(page);
  await page.getByRole('link', { name: 'Testbogen drucken' }).click();
  const images = page.getByRole('img');
  await expect(images).toHaveCount(3);
  for (const name of [
    'Code 1: Code 128 mit Sonderzeichen',
    'Code 2: GS1-128 mit Gruppentrenner',
    'Code 3: langer QR-Code',
  ]) {
    const image = page.getByRole('img', { name });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', /^data:image\/svg\+xml/);
    // Decoded and drawn: an SVG bwip-js could not render would have no size.
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  }
  await expect(page.getByText(CODE128, { exact: true })).toBeVisible();
  await expect(page.getByText('(01)04006381333931(10)TEST42(17)271231')).toBeVisible();

  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed++;
    };
  });
  await page.getByRole('button', { name: 'Drucken' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('link', { name: 'Zurück' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Demo Nutzer abmelden' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
  await expect(page.getByRole('img', { name: 'Code 3: langer QR-Code' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('link', { name: 'Zurück' }).click();
  await expect(page.getByRole('link', { name: 'Scanner testen' })).toBeVisible();
});

test('a correctly set scanner passes all three codes, in any order', async ({ page }) => {
  await openScannerTest(page);
  await expect(page.getByText('Noch 3 von 3 Codes scannen.')).toBeVisible();
  await wedgeScan(page, QR);
  await expect(result(page, 'Code 3: langer QR-Code')).toContainText('✓ In Ordnung');
  await expect(page.getByText('Noch 2 von 3 Codes scannen.')).toBeVisible();
  await wedgeScan(page, CODE128);
  await wedgeScan(page, GS1);
  for (const title of ['Code 1: Code 128 mit Sonderzeichen', 'Code 2: GS1-128 mit Gruppentrenner'])
    await expect(result(page, title)).toContainText('✓ In Ordnung');
  await expect(result(page, 'Code 2: GS1-128 mit Gruppentrenner')).toContainText(
    'Empfangen: 010400638133393110TEST42⟨GS⟩17271231',
  );
  await expect(page.getByText('✓ Der Scanner ist richtig eingestellt.')).toBeVisible();
});

test('a scanner typing the US layout on a German device is told to switch to German', async ({ page }) => {
  await openScannerTest(page);
  await scan(page, `Yz-1/2_3#4"5"6;7:8'9[0]`);
  const code1 = result(page, 'Code 1: Code 128 mit Sonderzeichen');
  await expect(code1).toContainText('Zeichen kommen vertauscht an: „Z“ als „Y“, „y“ als „z“, „@“ als „"“.');
  await expect(code1).toContainText('Tastaturlayout des Scanners auf Deutsch (DE) stellen – wie das Gerät.');
  await expect(page.getByText('Bitte im Scanner ändern und den Test wiederholen:')).toBeVisible();
});

test('a scanner sending 30 ms per character is told to drop its delay', async ({ page }) => {
  await openScannerTest(page);
  await page.keyboard.type(CODE128, { delay: 30 });
  await page.keyboard.press('Enter');
  const code1 = result(page, 'Code 1: Code 128 mit Sonderzeichen');
  await expect(code1).toContainText('Die Zeichen kommen langsam');
  await expect(code1).toContainText(
    'Zeichenverzögerung (Inter-Character Delay) im Scanner auf 0 stellen; bei Bluetooth die schnellste Übertragung wählen.',
  );
});

test('a scanner without Enter at the end is told to set Enter as its suffix', async ({ page }) => {
  await openScannerTest(page);
  await page.keyboard.type(QR);
  const code3 = result(page, 'Code 3: langer QR-Code');
  await expect(code3).toContainText('Nach dem Code kommt kein Enter.');
  await expect(code3).toContainText('Suffix im Scanner auf Enter (CR) stellen.');
  await expect(page.getByLabel('Hier scannen')).toHaveValue('');
});

test('a group separator typed as text is taken into the device settings with one tap', async ({ page }) => {
  await openScannerTest(page);
  await wedgeScan(page, '010400638133393110TEST42<GS>17271231');
  const code2 = result(page, 'Code 2: GS1-128 mit Gruppentrenner');
  await expect(code2).toContainText('Der Gruppentrenner (GS) kommt als „<GS>“.');
  await page.getByRole('button', { name: 'Übernehmen' }).click();
  await expect(code2).toContainText('✓ In Ordnung');
  await expect(page.getByLabel('Hier scannen')).toBeFocused();
  await page.getByRole('link', { name: 'Zurück' }).click();
  await expect(page.getByLabel('Gruppentrenner (GS) kommt als')).toHaveValue('<GS>');
});
