import { leitstandTexts, leitstandUebersicht } from '../../../contract/leitstand/uebersicht.ts';
import { type Column, DataTable } from '../../ui/data-table.tsx';
import { hourOfDay, sinceToday } from '../../ui/format.ts';
import { useLeitstandQuery } from '../api.ts';
import { QueryState } from '../query-state.tsx';

const t = leitstandTexts.uebersicht;

const perScreen: Column<{ bildschirm: string; scans: number; abgelehnt: number }>[] = [
  { header: t.screen, cell: (r) => r.bildschirm },
  { header: t.scans, cell: (r) => r.scans, kind: 'number' },
  { header: t.refused, cell: (r) => r.abgelehnt, kind: 'number' },
];
const perHour: Column<{ stunde: number; scans: number }>[] = [
  { header: t.hour, cell: (r) => hourOfDay(r.stunde), kind: 'number' },
  { header: t.scans, cell: (r) => r.scans, kind: 'number' },
];
const lastScans: Column<{ mitarbeiter: string; bildschirm: string; at: string }>[] = [
  { header: t.user, cell: (r) => r.mitarbeiter },
  { header: t.screen, cell: (r) => r.bildschirm },
  { header: t.at, cell: (r) => sinceToday(r.at), kind: 'number' },
];
const klaerfaelle: Column<{ belegnr: string; at: string | null }>[] = [
  { header: t.note, cell: (r) => r.belegnr, kind: 'code' },
  { header: t.at, cell: (r) => sinceToday(r.at), kind: 'number' },
];
const carts: Column<{
  wagennummer: string;
  bezeichnung: string;
  pakete: number;
  offenSeit: string | null;
}>[] = [
  { header: t.cart, cell: (r) => `${r.wagennummer} ${r.bezeichnung}`.trim(), kind: 'code' },
  { header: t.parcels, cell: (r) => r.pakete, kind: 'number' },
  { header: t.openSince, cell: (r) => sinceToday(r.offenSeit), kind: 'number' },
];
const packing: Column<{ belegnr: string; gepackt: number; gesamt: number }>[] = [
  { header: t.note, cell: (r) => r.belegnr, kind: 'code' },
  { header: t.progress, cell: (r) => `${r.gepackt} / ${r.gesamt}`, kind: 'number' },
];

/** The floor at a glance, live: what was scanned today, who is where, what waits for a decision. */
export default function UebersichtPage() {
  const query = useLeitstandQuery(leitstandUebersicht);
  return (
    <>
      <h1>{t.title}</h1>
      <QueryState query={query}>
        {({ data }) => (
          <div className="leitstand-cards">
            <section aria-label={t.failedLogins}>
              <h2>{t.failedLogins}</h2>
              <p className="leitstand-figure">{data.fehlgeschlageneAnmeldungen}</p>
            </section>
            <DataTable
              heading={t.openKlaerfaelle}
              empty={t.none}
              columns={klaerfaelle}
              rows={data.offeneKlaerfaelle}
              rowKey={(r) => r.belegnr}
            />
            <DataTable
              heading={t.openCarts}
              empty={t.none}
              columns={carts}
              rows={data.offeneZollwagen}
              rowKey={(r) => r.wagennummer}
            />
            <DataTable
              heading={t.inPacking}
              empty={t.none}
              columns={packing}
              rows={data.imPacken}
              rowKey={(r) => r.belegnr}
            />
            <DataTable
              heading={t.scansToday}
              empty={t.noScans}
              columns={perScreen}
              rows={data.proBildschirm}
              rowKey={(r) => r.bildschirm}
            />
            <DataTable
              heading={t.scansPerHour}
              empty={t.noScans}
              columns={perHour}
              rows={data.proStunde}
              rowKey={(r) => String(r.stunde)}
            />
            <DataTable
              heading={t.lastScans}
              empty={t.noScans}
              columns={lastScans}
              rows={data.zuletzt}
              rowKey={(r) => `${r.mitarbeiter}-${r.at}`}
            />
          </div>
        )}
      </QueryState>
    </>
  );
}
