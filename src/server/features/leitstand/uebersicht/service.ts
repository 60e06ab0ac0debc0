import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { etikettenTexts } from '../../../../contract/etiketten.ts';
import { schnittstellenTexts } from '../../../../contract/leitstand/schnittstellen.ts';
import type { uebersicht } from '../../../../contract/leitstand/uebersicht.ts';
import { texts } from '../../../../contract/texts.ts';
import { zaehlauftragTexts } from '../../../../contract/zaehlauftrag.ts';
import type { Database } from '../../../db/schema.ts';
import type { Steps } from '../../../http/back-office.ts';

type Db = Kysely<Database>;

/**
 * The screen a write came from, by its call's path (the exactly-once store keeps "METHOD /path pattern").
 * Longer prefixes first: `/api/umbuchung/artikel` is Artikel umlagern, `/api/umbuchung` Umbuchung. Every
 * write of the contract has one (service.test.ts); the path is shown only for a call unknown here.
 */
const SCREENS: readonly [prefix: string, screen: string][] = [
  ['/api/inventur', texts.menu.inventur],
  ['/api/zaehlauftrag', zaehlauftragTexts.heading],
  ['/api/umbuchung/artikel', texts.menu.artikelumlagern],
  ['/api/umbuchung', texts.menu.umbuchung],
  ['/api/batcherfassung', texts.menu.batcherfassung],
  ['/api/batch', texts.menu.batch],
  ['/api/containererfassung', texts.menu.container],
  ['/api/transporterfassung', texts.menu.transporter],
  ['/api/packagecontent', texts.menu.paketinhalt],
  ['/api/paketinhalt', texts.menu.paketinhalt],
  ['/api/packagerecording', texts.menu.kartonagenerfassung],
  ['/api/paketausgang', texts.menu.paketausgang],
  ['/api/retourenerfassung', texts.menu.retoure],
  ['/api/wmsretoure', texts.menu.wmsretoure],
  ['/api/zollpaketerfassung', texts.menu.zollpaket],
  ['/api/kommissionierung', texts.menu.kommissionierung],
  ['/api/wareneingang', texts.menu.wareneingang],
  ['/api/etiketten', etikettenTexts.title],
  ['/api/user/login', texts.login.heading],
  ['/api/einstellungen', texts.app.settings],
  ['/api/integration', schnittstellenTexts.title],
  ['/api/leitstand', 'Leitstand'],
  ['/api/admin', 'Leitstand'],
];

export function screenOf(route: string): string {
  const path = route.slice(route.indexOf(' ') + 1);
  return SCREENS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? path;
}

/**
 * What the Übersicht shows, "today" in the site's time zone. Read in steps (DESIGN §10): today's scans an hour
 * at a time (a busy day holds hundreds of thousands of exactly-once records, and every open Übersicht reads
 * them at each live refresh), then the rest — each part a short index read.
 */
export async function leitstandUebersicht(
  steps: Steps,
  db: Db,
  timeZone: string,
): Promise<z.input<typeof uebersicht>> {
  const startOfDay = sql<Date>`(date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone})`;
  const hours = await steps.run(async () => {
    const { rows } = await sql<{ from: Date; to: Date; hour: number }>`
      select h as "from", least(h + interval '1 hour', now() + interval '1 second') as "to",
             extract(hour from h at time zone ${timeZone})::int as hour
      from generate_series(${startOfDay}, now(), interval '1 hour') h`.execute(db);
    return rows;
  });
  const routes = new Map<string, { scans: number; refused: number }>();
  const perHour = new Map<number, number>();
  for (const window of hours) {
    const { rows } = await steps.run(() =>
      sql<{ route: string; scans: number; refused: number }>`
        select route, count(*)::int as scans, (count(*) filter (where status_code >= 400))::int as refused
        from idempotency where created_at >= ${window.from} and created_at < ${window.to}
        group by route`.execute(db),
    );
    for (const r of rows) {
      const sum = routes.get(r.route) ?? { scans: 0, refused: 0 };
      sum.scans += r.scans;
      sum.refused += r.refused;
      routes.set(r.route, sum);
      perHour.set(window.hour, (perHour.get(window.hour) ?? 0) + r.scans);
    }
  }
  const [last, klaerfaelle, carts, packing, failed] = await steps.run(() =>
    Promise.all([
      // Each user's last scan today: one read of (user_id, created_at) backwards per user.
      sql<{ name: string; route: string; at: Date }>`
      select u.name, last.route, last.at from users u
      cross join lateral (
        select i.route, i.created_at as at from idempotency i
        where i.user_id = u.id and i.created_at >= ${startOfDay}
        order by i.created_at desc limit 1) last
      order by last.at desc limit 50`.execute(db),
      // Open: not yet closed by the shift lead (decision 20; a note closed as 'Erledigt' keeps its status).
      db
        .selectFrom('klaerfaelle as k')
        .innerJoin('delivery_notes as n', 'n.id', 'k.delivery_note_id')
        .select(['n.belegnr', 'k.reported_at as klaerfall_at'])
        .where('k.outcome', 'is', null)
        .orderBy('k.reported_at')
        .orderBy('k.id')
        .limit(200)
        .execute(),
      sql<{ wagennummer: string; bezeichnung: string; parcels: number; opened_at: Date | null }>`
      select c.wagennummer, c.bezeichnung, c.opened_at,
        (select count(*) from customs_parcels p
          where p.cart_id = c.id and (c.opened_at is null or p.at >= c.opened_at))::int as parcels
      from carts c where c.status = 'offen' order by c.opened_at nulls last, c.wagennummer`.execute(db),
      // The notes being packed: the open ones with a line started (a partial index, migration 2026-11-27-01),
      // each one's lines added up by its key.
      sql<{ belegnr: string; packed: number; total: number }>`
      select n.belegnr, p.packed, p.total
      from delivery_notes n
      cross join lateral (
        select sum(l.pemenge)::int as packed, sum(l.lsmenge)::int as total
        from delivery_note_lines l where l.delivery_note_id = n.id) p
      where n.status = 'offen' and n.lines_started > 0 and p.packed < p.total
      order by n.belegnr limit 200`.execute(db),
      sql<{ count: number }>`
      select count(*)::int as count from failed_logins where at > now() - interval '1 hour'`.execute(db),
    ]),
  );

  const perScreen = new Map<string, { scans: number; abgelehnt: number }>();
  for (const [route, r] of routes) {
    const screen = screenOf(route);
    const sum = perScreen.get(screen) ?? { scans: 0, abgelehnt: 0 };
    sum.scans += r.scans;
    sum.abgelehnt += r.refused;
    perScreen.set(screen, sum);
  }
  return {
    proBildschirm: [...perScreen]
      .map(([bildschirm, sum]) => ({ bildschirm, ...sum }))
      .sort((a, b) => b.scans - a.scans || a.bildschirm.localeCompare(b.bildschirm, 'de')),
    proStunde: [...perHour]
      .filter(([, scans]) => scans > 0)
      .sort(([a], [b]) => a - b)
      .map(([stunde, scans]) => ({ stunde, scans })),
    zuletzt: last.rows.map((r) => ({ mitarbeiter: r.name, bildschirm: screenOf(r.route), at: iso(r.at) })),
    offeneKlaerfaelle: klaerfaelle.map((k) => ({
      belegnr: k.belegnr,
      at: k.klaerfall_at ? iso(k.klaerfall_at) : null,
    })),
    offeneZollwagen: carts.rows.map((c) => ({
      wagennummer: c.wagennummer,
      bezeichnung: c.bezeichnung,
      pakete: c.parcels,
      offenSeit: c.opened_at ? iso(c.opened_at) : null,
    })),
    imPacken: packing.rows.map((p) => ({ belegnr: p.belegnr, gepackt: p.packed, gesamt: p.total })),
    fehlgeschlageneAnmeldungen: failed.rows[0]?.count ?? 0,
  };
}

const iso = (at: Date | string) => new Date(at).toISOString();
