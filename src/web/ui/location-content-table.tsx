import { texts } from '../../contract/texts.ts';

export type ContentRow = { number: string; name: string; amount: number };

/** What lies on a location: Nummer, Name, Menge — or 'Keine Artikel auf diesem Lagerplatz!'. */
export function LocationContentTable({ heading, rows }: { heading: string; rows: ContentRow[] }) {
  return (
    <section aria-label={heading}>
      <h2>{heading}</h2>
      {rows.length === 0 ? (
        <p className="hint">{texts.lookup.locationEmpty}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{texts.lagercheck.number}</th>
              <th>{texts.lagercheck.name}</th>
              <th className="number">{texts.lagercheck.amount}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.number}>
                <td>{row.number}</td>
                <td>{row.name}</td>
                <td className="number">{row.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
