import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The documents' font — the labels' (issue 39), the Inventurliste's (issue 42): DejaVu Sans Condensed, regular and bold, from the npm package dejavu-fonts-ttf
 * (Bitstream Vera licence with public-domain changes: free to redistribute and embed). It covers Latin with
 * its extensions, Greek and Cyrillic — the crew's German, Polish, Romanian, Ukrainian, Turkish and English —
 * and the condensed cut is within about 10 % of Helvetica's widths, so labels keep their text sizes. pdfkit
 * embeds only the glyphs a PDF uses (≈ 3 KB a font). pdfkit's built-in Helvetica knows WinAnsi only: 'Łódź'
 * came out as '6Az'.
 *
 * The package is resolved from node_modules at run time, as pdfkit is: the server bundle keeps packages
 * external (src/server/build-server.ts), so `npm start` finds the same files as tsx does.
 */
export interface LabelFont {
  readonly unitsPerEm: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphsForString(text: string): Glyph[];
  layout(text: string): GlyphRun;
}

interface Glyph {
  advanceWidth: number;
}

/** fontkit's result of `layout`, as pdfkit reads it. */
interface GlyphRun {
  glyphs: Glyph[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
  advanceWidth: number;
}

export interface LabelFonts {
  regular: LabelFont;
  bold: LabelFont;
}

/** What a label prints for a character its font lacks (CJK, say): visible, and the same in PDF and ZPL. */
export const MISSING_CHARACTER = '?';

const require = createRequire(import.meta.url);
let fonts: LabelFonts | null = null;

/**
 * Both fonts, parsed once per process at the first label and shared by every PDF: parsing them for each
 * document took 14–38 ms of the thread (one step's budget is 5 ms), a shared font ≈ 1 ms at the first text.
 */
export function labelFonts(): LabelFonts {
  if (!fonts) {
    const fontkit = require('fontkit') as { create(data: Uint8Array): LabelFont };
    const open = (file: string) =>
      unshaped(fontkit.create(fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))));
    fonts = { regular: open('DejaVuSansCondensed.ttf'), bold: open('DejaVuSansCondensed-Bold.ttf') };
  }
  return fonts;
}

/**
 * The font with a `layout` that only maps characters to glyphs, each at its own advance: no OpenType shaping
 * (kerning, ligatures, mark positioning), which a label's one line of Latin, Greek or Cyrillic in composed
 * form does not need. pdfkit lays out every text it draws with the font's `layout`: fontkit's shaping took
 * 87 µs a text (24 µs with every feature switched off) against 6 µs for Helvetica, and made the steps of a
 * label run hold the thread longer; mapping alone takes ≈ 2 µs. Everything else is fontkit's own font.
 */
function unshaped(font: LabelFont): LabelFont {
  const layout = (text: string): GlyphRun => {
    const glyphs = font.glyphsForString(text);
    const positions = glyphs.map((glyph) => ({
      xAdvance: glyph.advanceWidth,
      yAdvance: 0,
      xOffset: 0,
      yOffset: 0,
    }));
    return {
      glyphs,
      positions,
      // As fontkit's GlyphRun: the sum of the positions, which pdfkit scales to its units after the call.
      get advanceWidth() {
        return positions.reduce((sum, position) => sum + position.xAdvance, 0);
      },
    };
  };
  // The parsed font as prototype: every other property and method is its own.
  return Object.create(font, { layout: { value: layout } }) as LabelFont;
}

/**
 * A text as a label prints it: composed (NFC: 'ó' as one character, as the font draws it), and each character
 * that either label font lacks as MISSING_CHARACTER. '?' rather than the font's empty box: a box reads like a
 * checkbox or nothing at all, a '?' as "a character is missing here" in every language of the crew; and a
 * Zebra printer's own font has a '?' too, so a ZPL label shows the same. One '?' per character, so the length
 * of what is missing shows.
 */
export function labelText(text: string): string {
  // Printable Latin-1 (codes, German names) is in both fonts and already composed: no need to load them for
  // it — a ZPL label (drawn by the printer) then loads no font at all, and the first print after a start
  // takes ≈ 55 ms as before instead of ≈ 130 ms.
  if (/^[\x20-\x7e\xa0-\xff]*$/.test(text)) return text;
  const { regular, bold } = labelFonts();
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    out += regular.hasGlyphForCodePoint(code) && bold.hasGlyphForCodePoint(code) ? char : MISSING_CHARACTER;
  }
  return out;
}
