import { loginWithPassword, scan, scanInto, setStock } from './support/helpers.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/** How a table lies on the 360 px screen: each header cell's lines and overflow, and the table's right edge. */
async function layoutOf(table: Locator) {
  return table.evaluate((element) => {
    const linesOf = (cell: Element) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      // The line boxes the cell's text takes: 2 or more for one word means it was broken.
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    const measure = (cell: Element) => ({
      text: cell.textContent ?? '',
      lines: linesOf(cell),
      overflows: cell.scrollWidth > cell.clientWidth,
    });
    return {
      headers: [...element.querySelectorAll('th')].map(measure),
      amounts: [...element.querySelectorAll('td.number')].map(measure),
      // Names and times: wrapped between words only, so never more lines than words, and never cut off.
      texts: [...element.querySelectorAll('td:not(.number):not(.code)')].map((cell) => ({
        ...measure(cell),
        words: (cell.textContent ?? '').trim().split(/\s+/).length,
      })),
      right: element.getBoundingClientRect().right,
      pageWidth: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    };
  });
}

async function expectReadableOn360(table: Locator, headers: string[]) {
  await expect(table.getByRole('columnheader')).toHaveText(headers);
  const layout = await layoutOf(table);
  expect(layout.viewport).toBe(360);
  for (const cell of [...layout.headers, ...layout.amounts])
    expect(cell, cell.text).toMatchObject({ lines: 1, overflows: false });
  for (const cell of layout.texts) {
    expect(cell.lines, cell.text).toBeLessThanOrEqual(cell.words);
    expect(cell.overflows, cell.text).toBe(false);
  }
  expect(layout.right).toBeLessThanOrEqual(360);
  expect(layout.pageWidth).toBeLessThanOrEqual(360);
}

async function openPaketinhalt(page: Page) {
  await loginWithPassword(page);
  await page.getByRole('link', { name: 'Paketinhalt', exact: true }).click();
  await scanInto(page, page.getByLabel('Lieferschein'), 'LS100001');
}

test('the packing table fits 360 px with every header on one line, long codes wrapping in their cells', async ({
  page,
}) => {
  await openPaketinhalt(page);
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectReadableOn360(table, ['Nummer', 'Name', 'Soll', 'Ist']);
  // The cells still hold all of it: the EAN is there, however narrow its column.
  await expect(table).toContainText('4006381333931');
  await expect(table).toContainText('Kugelschreiber blau');
  // Its rows are laid out as grids (so those off screen are skipped): Chromium's own accessibility tree —
  // what a screen reader gets — must still hold a table of header row, rows and cells.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const count = (role: string) => nodes.filter((n) => n.role?.value === role).length;
  expect({
    table: count('table'),
    row: count('row'),
    columnheader: count('columnheader'),
    cell: count('cell'),
  }).toEqual({ table: 1, row: 3, columnheader: 4, cell: 8 });
});

test('Inventur’s “Letzte Scans” fits 360 px with every header on one line', async ({ page }) => {
  await loginWithPassword(page);
  await setStock(page, 'A-01-01-01', '100001', 7);
  await setStock(page, 'A-01-01-02', '100003', 1_000_000);
  // A pallet's SSCC is the longest code a location has: it wraps in its cell, the table stays on screen.
  await setStock(page, '340123450000000017', '100002', 12);
  const historyLoaded = page.waitForResponse('**/api/inventur/history');
  await page.getByRole('link', { name: 'Inventur', exact: true }).click();
  await historyLoaded;
  const history = page.getByRole('region', { name: 'Letzte Scans' }).getByRole('table');
  // The user's latest counts, newest first: other specs' counts of the demo user may follow below ours.
  const rows = history.getByRole('row');
  await expect(rows.nth(1)).toContainText('340123450000000017');
  await expect(rows.nth(2)).toContainText('1000000');
  await expect(rows.nth(3)).toContainText('A-01-01-01');
  await expectReadableOn360(history, ['Zeit', 'Artikel', 'LP', 'Menge']);
  await scan(page, 'A-01-01-01'); // the screen still takes a scan with the table below it
  await expect(page.getByLabel('Artikel')).toBeFocused();
});
