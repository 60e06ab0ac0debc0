import { texts } from '../../contract/texts.ts';
import { DataTable } from './data-table.tsx';

export type ContentRow = { number: string; name: string; amount: number };

/** What lies on a location: Nummer, Name, Menge — or 'Keine Artikel auf diesem Lagerplatz!'. */
export function LocationContentTable({ heading, rows }: { heading: string; rows: ContentRow[] }) {
  return (
    <DataTable
      heading={heading}
      empty={texts.lookup.locationEmpty}
      rows={rows}
      rowKey={(row) => row.number}
      columns={[
        { header: texts.lagercheck.number, cell: (row) => row.number, kind: 'code' },
        { header: texts.lagercheck.name, cell: (row) => row.name },
        { header: texts.lagercheck.amount, cell: (row) => row.amount, kind: 'number' },
      ]}
    />
  );
}
