/**
 * Article files for the import's load tests: `count` rows (or as many as fit `maxBytes`), numbered after
 * `prefix`, with what ERP exports have — a quoted name with the separator in it, umlauts, a € sign.
 */
export function articlesCsv(options: { count?: number; maxBytes?: number; prefix: string }): string {
  const lines = ['Artikelnummer;Bezeichnung;Kurzbezeichnung;EAN;Herstellernummer;Chargenpflicht'];
  let bytes = lines[0]?.length ?? 0;
  for (let n = 1; n <= (options.count ?? Number.POSITIVE_INFINITY); n++) {
    const line = `${options.prefix}${n};"Dübel Größe ${n}; Stück";Art ${n} à 5 €;;HN-${n};${n % 10 === 0 ? 'ja' : 'nein'}`;
    // Counted in Windows-1252 bytes (one a character) plus CRLF.
    if (options.maxBytes !== undefined && bytes + line.length + 2 > options.maxBytes) break;
    lines.push(line);
    bytes += line.length + 2;
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A text as German Excel's default CSV saves it: Windows-1252, one byte a character. */
export function windows1252(text: string): Buffer {
  const high: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93 };
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const code = high[c] ?? c.charCodeAt(0);
    if (code > 0xff) throw new Error(`not in Windows-1252: ${c}`);
    bytes[i] = code;
  }
  return bytes;
}
