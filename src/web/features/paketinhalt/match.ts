import { eanVariants } from '../../../contract/ean.ts';
import type { PackageContentRow } from '../../../contract/paketinhalt.ts';

/** The rows a scan means: by nummer, herstellernummer or EAN (also with one leading 0 added or dropped). */
export function matchingRows(rows: PackageContentRow[], scanned: string): PackageContentRow[] {
  const text = scanned.trim();
  const eans = eanVariants(text);
  return rows.filter(
    (r) => r.nummer === text || r.herstellernummer === text || (r.ean !== null && eans.includes(r.ean)),
  );
}
