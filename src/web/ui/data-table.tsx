import { memo, type ReactNode } from 'react';

export interface Column<Row> {
  /** Its text, or how to read it when the table is drawn: a column list made once stays in the worker's language. */
  header: string | (() => string);
  cell: (row: Row) => ReactNode;
  /**
   * How the cells wrap on a narrow screen: 'text' (a name, a time) only between words; 'code' (an EAN, a
   * location, an SSCC) anywhere, so a long code never pushes the table off screen; 'number' never, right
   * aligned. Default 'text'.
   */
  kind?: 'text' | 'code' | 'number';
}

const headerOf = <Row,>(column: Column<Row>) =>
  typeof column.header === 'string' ? column.header : column.header();

/**
 * A titled list of rows, or a hint when there are none. The section is named by its heading, so a test or
 * a screen reader finds "Letzte Scans" or "Inhalt von A-01-01-01" by that name.
 *
 * Memoised: a scanner types one keystroke at a time into a field of the same screen, and each would
 * otherwise lay the whole list out again. Pass columns and rowKey defined outside the component.
 */
export const DataTable = memo(DataTableRows) as typeof DataTableRows;

function DataTableRows<Row>({
  heading,
  empty,
  columns,
  rows,
  rowKey,
}: {
  heading: string;
  empty: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row, index: number) => string;
}) {
  return (
    <section aria-label={heading}>
      <h2>{heading}</h2>
      {rows.length === 0 ? (
        <p className="hint">{empty}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={headerOf(c)} className={c.kind === 'number' ? 'number' : undefined}>
                  {headerOf(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={rowKey(row, index)}>
                {columns.map((c) => (
                  <td
                    key={headerOf(c)}
                    className={c.kind === 'code' || c.kind === 'number' ? c.kind : undefined}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
