import type { Writable } from 'node:stream';
import { LABEL_SIZES, type LabelSize } from '../../../contract/etiketten.ts';
import { labelText } from '../../documents/font.ts';
import { streamedPdf } from '../../documents/pdf.ts';
import type { Steps } from '../../http/back-office.ts';
import { type Box, type Label, layoutFor, type Modules, modulesOf, moduleWidth } from './label.ts';

const A4 = { width: 210, height: 297 } as const;
const MM = 72 / 25.4;

/**
 * Labels drawn in one step (a quarter of a 70×36 sheet, or 6 roll labels of a page each): a label's barcode,
 * text and the page's compression take about 0.1–0.5 ms, so a step stays within STEP_TARGET_MS. It was 8 with
 * Helvetica; the embedded font costs a little more per text (issue 39: a step's median 0.80 → 0.87 ms at 8,
 * 0.58 at 6), and a step must not hold the thread longer for it.
 */
const LABELS_PER_STEP = 6;

/**
 * Writes labels as one PDF into `out`, a page at a time: pdfkit writes each finished page into the stream,
 * and this waits whenever `out` has more buffered than it wants (a slow download), so a run of 20,000
 * labels never sits in memory (test/api/etiketten-memory.test.ts states the ceiling). Stops early when `out`
 * is closed (the browser went away). Answers how many labels it wrote.
 *
 * A few labels at a time are drawn in one of `steps` (DESIGN §10): drawing barcodes and compressing the page
 * before takes milliseconds of the server's one thread, 20,000 labels seconds; between two steps every
 * handheld call goes first. A step also starts on a later turn of the event loop, where
 * pdfkit hands its finished page to 'data' listeners — a source that answers from memory (the embedded
 * database) would otherwise never leave the microtask queue, and the whole run would pile up in pdfkit's
 * buffer (the memory test caught this).
 */
export async function writePdf(
  steps: Steps,
  labels: AsyncIterable<Label>,
  size: LabelSize,
  out: Writable,
  title: string,
): Promise<number> {
  const format = LABEL_SIZES[size];
  const page = format.sheet ? A4 : format;
  const perPage = format.sheet ? format.sheet.columns * format.sheet.rows : 1;
  const perStep = LABELS_PER_STEP;
  const pdf = streamedPdf(out, title);
  const doc = pdf.doc;
  let count = 0;
  const draw = async (batch: Label[]) => {
    if (!(await pdf.ready())) return;
    await steps.run(async () => {
      for (const label of batch) {
        const slot = count % perPage;
        if (slot === 0) {
          if (count > 0) doc.restore();
          doc.addPage({ size: [page.width * MM, page.height * MM], margin: 0 });
          // Everything below is drawn in millimetres.
          doc.save().scale(MM);
        }
        const origin = format.sheet
          ? {
              x:
                (A4.width - format.sheet.columns * format.width) / 2 +
                (slot % format.sheet.columns) * format.width,
              y:
                (A4.height - format.sheet.rows * format.height) / 2 +
                Math.floor(slot / format.sheet.columns) * format.height,
            }
          : { x: 0, y: 0 };
        drawLabel(doc, label, size, origin);
        count++;
      }
    });
  };
  let batch: Label[] = [];
  for await (const label of labels) {
    if (out.destroyed) break;
    batch.push(label);
    if (batch.length >= perStep) {
      await draw(batch);
      batch = [];
    }
  }
  if (batch.length > 0 && !out.destroyed) await draw(batch);
  await steps.run(async () => {
    if (count === 0) doc.addPage({ size: [page.width * MM, page.height * MM], margin: 0 });
    else doc.restore();
    doc.flushPages();
  });
  await pdf.finish(steps);
  return count;
}

function drawLabel(doc: PDFKit.PDFDocument, label: Label, size: LabelSize, origin: { x: number; y: number }) {
  const layout = layoutFor(label, size);
  const at = (box: Box): Box => ({ ...box, x: origin.x + box.x, y: origin.y + box.y });
  fitText(doc, label.title, at(layout.title), 'bold', label.symbol.type === 'qrcode' ? 'left' : 'center');
  if (layout.arrow && label.arrow) drawArrow(doc, at(layout.arrow), label.arrow);
  const code = at(layout.code);
  const modules = modulesOf(label.symbol);
  drawCode(doc, modules, code, moduleWidth(modules, layout.code, size, label.symbol.data));
  layout.lines.forEach((box, i) => {
    const line = label.lines[i];
    if (line) fitText(doc, line, at(box), 'regular', label.symbol.type === 'qrcode' ? 'left' : 'center');
  });
}

function drawCode(doc: PDFKit.PDFDocument, modules: Modules, box: Box, module: number) {
  if (modules.kind === 'linear') {
    let x = box.x + (box.width - modules.total * module) / 2;
    modules.widths.forEach((w, i) => {
      if (i % 2 === 0) doc.rect(x, box.y, w * module, box.height);
      x += w * module;
    });
  } else {
    const side = modules.size * module;
    const x0 = box.x + (box.width - side) / 2;
    const y0 = box.y + (box.height - side) / 2;
    // One rectangle per run of dark modules in a row: a tenth of the drawing operations of one per module.
    for (let y = 0; y < modules.size; y++) {
      let x = 0;
      while (x < modules.size) {
        if (!modules.dark(x, y)) {
          x++;
          continue;
        }
        const start = x;
        while (x < modules.size && modules.dark(x, y)) x++;
        // A hair of overlap downwards, so no viewer draws a white seam between rows.
        doc.rect(x0 + start * module, y0 + y * module, (x - start) * module, module * 1.02);
      }
    }
  }
  doc.fill('black');
}

/** One line of text, as large as fits the box (at most its height), shortened with '…' below a legible size. */
function fitText(
  doc: PDFKit.PDFDocument,
  text: string,
  box: Box,
  font: 'regular' | 'bold',
  align: 'center' | 'left',
) {
  doc.font(font);
  // DejaVu's cap height is 0.73 of the font size: size the capitals to about the box's height.
  let fontSize = box.height / 0.95;
  doc.fontSize(fontSize);
  // Characters the font lacks become '?' (font.ts), so what is measured is what is drawn.
  let shown = labelText(text);
  const width = doc.widthOfString(shown);
  if (width > box.width) fontSize = (fontSize * box.width) / width;
  const smallest = 1.6; // mm, about 4.5 pt
  if (fontSize < smallest) {
    fontSize = smallest;
    doc.fontSize(fontSize);
    while (shown.length > 1 && doc.widthOfString(`${shown}…`) > box.width) shown = shown.slice(0, -1);
    shown = `${shown}…`;
  }
  doc.fontSize(fontSize);
  // The capitals centred in the box, a little above its middle (room for descenders).
  const baseline = box.y + (box.height + fontSize * 0.72) / 2 - fontSize * 0.2;
  doc
    .fillColor('black')
    .text(shown, box.x, baseline, { width: box.width, align, lineBreak: false, baseline: 'alphabetic' });
}

function drawArrow(doc: PDFKit.PDFDocument, box: Box, direction: 'hoch' | 'runter') {
  const cx = box.x + box.width / 2;
  const head = box.height * 0.5;
  const shaft = box.width * 0.18;
  const top = box.y + box.height * 0.05;
  const bottom = box.y + box.height * 0.95;
  const points: [number, number][] =
    direction === 'hoch'
      ? [
          [cx, top],
          [box.x + box.width * 0.95, top + head],
          [cx + shaft, top + head],
          [cx + shaft, bottom],
          [cx - shaft, bottom],
          [cx - shaft, top + head],
          [box.x + box.width * 0.05, top + head],
        ]
      : [
          [cx, bottom],
          [box.x + box.width * 0.95, bottom - head],
          [cx + shaft, bottom - head],
          [cx + shaft, top],
          [cx - shaft, top],
          [cx - shaft, bottom - head],
          [box.x + box.width * 0.05, bottom - head],
        ];
  doc.polygon(...points).fill('black');
}
