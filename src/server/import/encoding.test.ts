import { describe, expect, it } from 'vitest';
import { decodeCsv } from './encoding.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
/** What German Excel's default "CSV (Trennzeichen-getrennt)" writes: Windows-1252. */
const CP1252: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93 };
const excel1252 = (text: string) => Uint8Array.from([...text].map((c) => CP1252[c] ?? c.charCodeAt(0)));

describe('reading a CSV file of any encoding German Excel writes', () => {
  it('reads UTF-8 with and without a byte order mark', () => {
    expect(decodeCsv(utf8('Name;Preis\nDübel;5 €\n'))).toEqual({
      ok: true,
      text: 'Name;Preis\nDübel;5 €\n',
      encoding: 'UTF-8',
    });
    const marked = decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Größe\n')]));
    expect(marked).toEqual({ ok: true, text: 'Größe\n', encoding: 'UTF-8' });
  });

  it('reads Excel’s default Windows-1252 CSV with umlauts, ß and the euro sign', () => {
    const decoded = decodeCsv(
      excel1252('Artikelnummer;Bezeichnung;Preis\n1;Dübel „groß“ für Müller;4,99 €\n'),
    );
    expect(decoded).toEqual({
      ok: true,
      text: 'Artikelnummer;Bezeichnung;Preis\n1;Dübel „groß“ für Müller;4,99 €\n',
      encoding: 'Windows-1252',
    });
  });

  it('takes plain ASCII as UTF-8', () => {
    expect(decodeCsv(utf8('a;b\n1;2\n'))).toMatchObject({ ok: true, encoding: 'UTF-8' });
  });

  it('refuses UTF-16, binary data, a broken UTF-8 file with a mark, and bytes Windows-1252 does not have', () => {
    const utf16 = Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0x3b, 0x00]);
    expect(decodeCsv(utf16)).toEqual({
      ok: false,
      reason:
        'The file is UTF-16 (Excel: "Unicode-Text"). Save it from Excel as "CSV UTF-8 (durch Trennzeichen getrennt)" or "CSV (Trennzeichen-getrennt)".',
    });
    expect(decodeCsv(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('binary data'),
    });
    expect(decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41, 0xfc]))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('marked as UTF-8 but not valid UTF-8'),
    });
    expect(decodeCsv(Uint8Array.from([0x41, 0xfc, 0x81]))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('neither UTF-8 nor Windows-1252 (byte 0x81)'),
    });
  });
});
