import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import type PDFDocument from 'pdfkit';
import type { Steps } from '../http/back-office.ts';
import { drained } from './drained.ts';
import { labelFonts } from './font.ts';

/**
 * pdfkit and the documents' fonts (font.ts) are loaded at the first PDF, not at the server's start (≈ 24 MB
 * RSS at idle).
 */
let PdfKit: typeof PDFDocument | null = null;

/**
 * A PDF written into `out` as pdfkit finishes each page (the label PDFs, the Inventurliste), its fonts
 * 'regular' and 'bold' registered and its pages added by the caller. Between its steps the caller awaits
 * `ready()`: it waits while `out` has more buffered than it wants (a slow download), so a long document never
 * sits in memory, and says whether `out` is still open (the browser may have gone away). `finish(steps)` ends
 * it after the last page was flushed.
 */
export function streamedPdf(out: Writable, title: string) {
  PdfKit ??= createRequire(import.meta.url)('pdfkit') as typeof PDFDocument;
  const fonts = labelFonts();
  const doc = new PdfKit({
    autoFirstPage: false,
    margin: 0,
    compress: true,
    info: { Title: title, Creator: 'Lagerscanner' },
    // pdfkit would keep every word's glyph run for the whole document: 20,000 location codes, 20,000 runs.
    fontLayoutCache: false,
  });
  // The parsed fonts, shared by every PDF (font.ts); pdfkit 0.20 takes a fontkit font as it is.
  doc.registerFont('regular', fonts.regular as unknown as Buffer);
  doc.registerFont('bold', fonts.bold as unknown as Buffer);
  let waiting = false;
  doc.on('data', (chunk: Buffer) => {
    if (!out.write(chunk)) waiting = true;
  });
  const ended = once(doc, 'end');
  return {
    doc,
    async ready(): Promise<boolean> {
      if (waiting) {
        await drained(out);
        waiting = false;
      }
      return !out.destroyed;
    },
    async finish(steps: Steps): Promise<void> {
      // Each font's subset written in a step of its own (≈ 1–1.5 ms each; in doc.end() both with the rest
      // took ≈ 3 ms, three times the end step with Helvetica). pdfkit's table of the document's fonts is its
      // own: were it renamed, doc.end() would embed them as it always does.
      const used = (doc as unknown as { _fontFamilies?: Record<string, { finalize?: () => void }> })
        ._fontFamilies;
      for (const font of new Set(Object.values(used ?? {}))) await steps.run(async () => font.finalize?.());
      await steps.run(async () => doc.end());
      await ended;
      if (!out.destroyed) out.end();
    },
  };
}
