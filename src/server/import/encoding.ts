/**
 * Which encoding a CSV file from an ERP or a spreadsheet is in. German Excel offers two CSV formats: "CSV
 * UTF-8 (durch Trennzeichen getrennt)" (UTF-8 with a byte order mark) and the default "CSV (Trennzeichen-
 * getrennt)", which is Windows-1252 (ä ö ü ß as single bytes, € as 0x80). Both are read; so is UTF-8
 * without a mark. Anything else — UTF-16, a binary file, bytes Windows-1252 does not define — is refused
 * with what to do instead.
 *
 * UTF-8 is tried first and strictly: a Windows-1252 file with umlauts is never valid UTF-8 (an umlaut byte
 * is not followed by a continuation byte), so a file that decodes as UTF-8 is UTF-8.
 */
export type CsvEncoding = 'UTF-8' | 'Windows-1252';

export type Decoded = { ok: true; text: string; encoding: CsvEncoding } | { ok: false; reason: string };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** The five bytes Windows-1252 leaves undefined (the WHATWG decoder would make control characters of them). */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

export function decodeCsv(bytes: Uint8Array): Decoded {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return refuse('UTF-16 (Excel: "Unicode-Text")');
  if (bytes.includes(0)) return refuse('binary data (a NUL byte), not a CSV text');
  const hasBom = UTF8_BOM.every((b, i) => bytes[i] === b);
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    if (hasBom) return refuse('marked as UTF-8 but not valid UTF-8');
  }
  const undefinedByte = bytes.find((b) => UNDEFINED_IN_1252.has(b));
  if (undefinedByte !== undefined)
    return refuse(`neither UTF-8 nor Windows-1252 (byte 0x${undefinedByte.toString(16).toUpperCase()})`);
  return { ok: true, text: decodeWindows1252(bytes), encoding: 'Windows-1252' };
}

/**
 * Windows-1252 is ISO-8859-1 but for 0x80–0x9F, where it has € „ “ ” – — and a few more. Decoded here by its
 * table: Node 20's TextDecoder('windows-1252') decodes those bytes as ISO-8859-1's control characters.
 */
const HIGH_1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  // ISO-8859-1 as one byte per character (Node's 'latin1'), then the 32 characters where Windows-1252
  // differs. Never a string built a byte at a time: that made a rope of 15 million pieces of a 15 MB file
  // (+420 MB for a few seconds).
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => HIGH_1252[c.charCodeAt(0) - 0x80] ?? c);
}

function refuse(what: string): Decoded {
  return {
    ok: false,
    reason: `The file is ${what}. Save it from Excel as "CSV UTF-8 (durch Trennzeichen getrennt)" or "CSV (Trennzeichen-getrennt)".`,
  };
}
