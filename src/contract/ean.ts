/**
 * The EANs a scanned code may stand for (DESIGN §4): the code itself, with one leading 0 added, and with one
 * leading 0 dropped — EAN-13 and UPC/GTIN-14 scanners differ by that 0. An EAN has only digits, so any other
 * scan stands for none. The server matches articles by these (findArticle, the packing station's item scan)
 * and the packing screen matches the note's lines by them. No zod here, so any bundle can import it.
 */
export function eanVariants(scanned: string): string[] {
  if (!/^\d+$/.test(scanned)) return [];
  return [scanned, `0${scanned}`, ...(scanned.startsWith('0') ? [scanned.slice(1)] : [])];
}
