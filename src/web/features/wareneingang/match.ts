import { eanVariants } from '../../../contract/ean.ts';
import type { ReceiptLine } from '../../../contract/wareneingang.ts';

/** What is still open on a line (0 once all expected arrived). */
export const openOf = (line: ReceiptLine) => Math.max(line.erwartet - line.erhalten, 0);

/**
 * The receipt's line a scanned article code belongs to: by Artikelnummer, Herstellernummer or EAN (with or
 * without one leading 0, as the server matches articles). Several lines of the article (one per Charge):
 * the one of the label's Charge; without one, the first still open. `charge`: the label's (10), if any.
 * Answers the line, 'none' (not on this receipt) or the announced Charge the label's does not match.
 */
export function lineForScan(
  lines: readonly ReceiptLine[],
  code: string,
  charge: string | null,
): { line: ReceiptLine } | { none: true } | { chargeExpected: string } {
  const eans = eanVariants(code);
  const candidates = lines.filter(
    (l) => l.nummer === code || l.herstellernummer === code || (l.ean !== null && eans.includes(l.ean)),
  );
  if (candidates.length === 0) return { none: true };
  if (charge) {
    const same = candidates.find((l) => l.charge === charge) ?? candidates.find((l) => l.charge === null);
    if (same) return { line: same };
    return { chargeExpected: candidates.map((l) => l.charge).join(', ') };
  }
  const line = candidates.find((l) => openOf(l) > 0) ?? candidates[0];
  return line ? { line } : { none: true };
}
