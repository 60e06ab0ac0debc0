import type { Writable } from 'node:stream';
import {
  AUDIT_LIST_COLUMNS,
  inventurAuswertungTexts as T,
} from '../../../../contract/leitstand/inventur-auswertung.ts';
import { labelText } from '../../../documents/font.ts';
import { streamedPdf } from '../../../documents/pdf.ts';
import type { Steps } from '../../../http/back-office.ts';
import { type AuditListRow, cellsOf, localTime } from './audit-list.ts';

/** A4 landscape, in points. */
const PAGE = { width: 842, height: 595, margin: 28 } as const;
const FONT_SIZE = 7.5;
const ROW_HEIGHT = 12;
/** The table's first row's top (below the title) and the last row's bottom (above the page number). */
const TABLE_TOP = PAGE.margin + 34;
const TABLE_BOTTOM = PAGE.height - PAGE.margin - 16;
const ROWS_PER_PAGE = Math.floor((TABLE_BOTTOM - TABLE_TOP) / ROW_HEIGHT) - 1;

/** Each column's width (points, 786 in all) and whether it is a figure (right-aligned). */
const COLUMNS: { width: number; figure: boolean }[] = [
  { width: 72, figure: false },
  { width: 66, figure: false },
  { width: 140, figure: false },
  { width: 38, figure: true },
  { width: 84, figure: true },
  { width: 42, figure: true },
  { width: 84, figure: false },
  { width: 68, figure: false },
  { width: 100, figure: false },
  { width: 92, figure: false },
];

/**
 * Rows drawn in one step: a row is ten short texts (≈ 0.1 ms with the unshaped font), so a step stays within
 * STEP_TARGET_MS with the page's compression when a page ends in it.
 */
const ROWS_PER_STEP = 20;

/** A cell's text cut to its column's width as the current font measures it, '…' where cut. */
function fitted(doc: PDFKit.PDFDocument, text: string, width: number): string {
  const shown = labelText(text);
  if (doc.widthOfString(shown) <= width) return shown;
  let cut = shown;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * The Inventurliste as one PDF into `out`, A4 landscape, a page of ROWS_PER_PAGE rows with the column headers
 * at its top and its number at its foot; a step of ROWS_PER_STEP rows at a time behind the floor (DESIGN
 * §10), waiting while `out` has more buffered than it wants. Answers how many rows it wrote.
 */
export async function writeAuditListPdf(
  steps: Steps,
  batches: AsyncIterable<AuditListRow[]>,
  out: Writable,
  title: string,
  timeZone: string,
): Promise<number> {
  const pdf = streamedPdf(out, title);
  const doc = pdf.doc;
  const time = localTime(timeZone);
  let count = 0;
  let page = 0;
  let row = 0;

  const cells = (texts: (string | number)[], y: number, font: 'regular' | 'bold') => {
    doc.font(font).fontSize(FONT_SIZE);
    let x = PAGE.margin;
    texts.forEach((text, i) => {
      const column = COLUMNS[i] ?? { width: 40, figure: false };
      doc.text(fitted(doc, String(text), column.width - 4), x + 2, y, {
        width: column.width - 4,
        align: column.figure ? 'right' : 'left',
        lineBreak: false,
      });
      x += column.width;
    });
  };
  const newPage = () => {
    doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
    page++;
    row = 0;
    doc.font('bold').fontSize(12).text(labelText(title), PAGE.margin, PAGE.margin, { lineBreak: false });
    cells([...AUDIT_LIST_COLUMNS], TABLE_TOP, 'bold');
    doc
      .moveTo(PAGE.margin, TABLE_TOP + ROW_HEIGHT - 2)
      .lineTo(PAGE.width - PAGE.margin, TABLE_TOP + ROW_HEIGHT - 2)
      .lineWidth(0.5)
      .stroke();
    doc
      .font('regular')
      .fontSize(FONT_SIZE)
      .text(T.pdfPage(page), PAGE.margin, PAGE.height - PAGE.margin - 8, {
        width: PAGE.width - 2 * PAGE.margin,
        align: 'right',
        lineBreak: false,
      });
  };
  const draw = async (rows: AuditListRow[]) => {
    if (!(await pdf.ready())) return;
    await steps.run(async () => {
      for (const r of rows) {
        if (page === 0 || row >= ROWS_PER_PAGE) newPage();
        row++;
        cells(cellsOf(r, time), TABLE_TOP + row * ROW_HEIGHT, 'regular');
        count++;
      }
    });
  };

  for await (const batch of batches) {
    if (out.destroyed) break;
    for (let i = 0; i < batch.length; i += ROWS_PER_STEP) await draw(batch.slice(i, i + ROWS_PER_STEP));
  }
  await steps.run(async () => {
    if (page === 0) {
      newPage();
      doc
        .font('regular')
        .fontSize(10)
        .text(T.pdfEmpty, PAGE.margin, TABLE_TOP + 2 * ROW_HEIGHT);
    }
    doc.flushPages();
  });
  await pdf.finish(steps);
  return count;
}
