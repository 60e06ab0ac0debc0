import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, detectSeparator, parseCsv } from './csv.ts';
import { because } from './messages.ts';

const fieldsOf = (text: string) => parseCsv(text).records.map((r) => r.fields);

describe('parseCsv', () => {
  it('strips a UTF-8 byte order mark, so the first header name matches', () => {
    const file = parseCsv('\ufeffArtikelnummer;Bezeichnung\r\n1;Kuli\r\n');
    expect(file.header.fields).toEqual(['Artikelnummer', 'Bezeichnung']);
    expect(file.records).toEqual([{ line: 2, fields: ['1', 'Kuli'] }]);
  });

  it("takes ';' or ',' as separator from the header line, whichever it has more of", () => {
    expect(parseCsv('a;b\n1,5;2\n').records[0]?.fields).toEqual(['1,5', '2']);
    expect(parseCsv('a,b\n1;5,2\n').records[0]?.fields).toEqual(['1;5', '2']);
    expect(detectSeparator('"a;b;c",d,e\n')).toBe(',');
    expect(detectSeparator('Nummer\n1\n')).toBe(';');
    expect(detectSeparator('a\tb\n')).toBe('\t');
  });

  it('reads quoted fields with separators, doubled quotes and line breaks, and counts lines as in the file', () => {
    const parsed = parseCsv(
      'Nr;Name;Menge\r\n1;"Dübel; 8 mm";3\r\n2;"Rohr 1/2"" lang";4\r\n3;"zwei\r\nZeilen";5\r\n4;x;6\r\n',
    );
    expect(parsed.records).toEqual([
      { line: 2, fields: ['1', 'Dübel; 8 mm', '3'] },
      { line: 3, fields: ['2', 'Rohr 1/2" lang', '4'] },
      { line: 4, fields: ['3', 'zwei\r\nZeilen', '5'] },
      { line: 6, fields: ['4', 'x', '6'] },
    ]);
  });

  it('reads LF and CRLF files alike, without a final line break, and skips empty lines', () => {
    expect(fieldsOf('a;b\n1;2\n\n3;4')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(fieldsOf('a;b\r\n1;2\r\n\r\n')).toEqual([['1', '2']]);
    expect(fieldsOf('a;b\n;\n')).toEqual([['', '']]);
    expect(fieldsOf('a;b\n"";x\n')).toEqual([['', 'x']]);
  });

  it('takes a quote inside an unquoted field as it is', () => {
    expect(fieldsOf('a;b\nRohr 12" lang;1\n')).toEqual([['Rohr 12" lang', '1']]);
  });

  it('refuses a quoted field that never closes, naming the line it starts on', () => {
    expect(() => parseCsv('a;b\n1;2\n3;"offen\n4;5\n')).toThrow(
      new CsvSyntaxError(3, because('quoteNotClosed', {})),
    );
    expect(() => parseCsv('a;b\n1;"x"y\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('')).toThrow(/empty/);
  });

  it('reads back any table written the RFC 4180 way, with the line each record starts on', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'ä', ' ', ';', ',', '"', '\n', '\r\n', '1', '€') });
    fc.assert(
      fc.property(
        fc.constantFrom(';', ','),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.tuple(cell, cell, cell), { maxLength: 20 }),
        fc.boolean(),
        (separator, eol, rows, bom) => {
          const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
          const lines = rows.map((row) => row.map(quote).join(separator));
          const text = `${bom ? '\ufeff' : ''}${['a', 'b', 'c'].join(separator)}${eol}${lines.join(eol)}${eol}`;
          const file = parseCsv(text);
          expect(file.separator).toBe(separator);
          expect(file.records.map((r) => r.fields)).toEqual(rows);
          let line = 2;
          file.records.forEach((record, i) => {
            expect(record.line).toBe(line);
            line += (lines[i]?.split('\n').length ?? 1) - 1 + 1;
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
