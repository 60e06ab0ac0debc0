import { type Kysely, sql } from 'kysely';
import type {
  CartCompartment,
  CartLine,
  CartPut,
  CartStop,
  Fahrt,
} from '../../../contract/kommissionierwagen.ts';
import type { Database } from '../../db/schema.ts';
import { byCode, type PickPlace, pickPlaces } from '../../domain/picking.ts';

type Db = Kysely<Database>;

/**
 * The trip as its picker sees it now (contract `fahrt`): the cart's compartments with the note each holds
 * on this trip, the route over every open line of every note, the puts that may still be reversed.
 *
 * Each open line is picked where the single note would pick it (domain/picking.ts `pickPlaces`: the first
 * location in walking order holding all that is open, else the one holding most; marked locations left
 * out); lines at one location are one stop. Stops come in walking order (location code), those put off
 * with 'Später' after them in the order put off. A stop's `bestand` is the book stock there of the articles
 * picked at the stop (one article at most stops: its stock, as the single note shows it); each line's
 * `bestand` is its own article's there, which is what a put of that line may take.
 */
export async function fahrt(db: Db, tripId: number): Promise<Fahrt> {
  const trip = await db
    .selectFrom('pick_trips as t')
    .innerJoin('pick_carts as c', 'c.id', 't.cart_id')
    .select(['t.id', 't.cart_id', 'c.code'])
    .where('t.id', '=', tripId)
    .executeTakeFirstOrThrow();
  const compartments = await db
    .selectFrom('pick_cart_compartments as f')
    .leftJoin('pick_trip_notes as tn', (join) =>
      join
        .onRef('tn.compartment_id', '=', 'f.id')
        .on('tn.trip_id', '=', tripId)
        .on('tn.freed_at', 'is', null),
    )
    .leftJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
    .select(['f.id', 'f.number', 'f.code', 'n.id as noteId', 'n.belegnr'])
    .where('f.cart_id', '=', trip.cart_id)
    .orderBy('f.number')
    .execute();
  const held = compartments.flatMap((f) => (f.noteId === null ? [] : [f]));
  const lines =
    held.length === 0
      ? []
      : await db
          .selectFrom('delivery_note_lines as l')
          .innerJoin('articles as a', 'a.id', 'l.article_id')
          .select([
            'l.id',
            'l.delivery_note_id',
            'a.id as artikelId',
            'a.nummer',
            'a.name',
            'a.ean',
            'a.herstellernummer',
            'l.lsmenge',
            'l.kommissioniert',
            'l.fehlmenge',
          ])
          .where(
            'l.delivery_note_id',
            'in',
            held.map((f) => f.noteId as number),
          )
          .orderBy('l.id')
          .execute();
  const withOpen = lines.map((l) => ({ ...l, offen: l.lsmenge - l.kommissioniert - l.fehlmenge }));
  const places = await pickPlaces(db, withOpen);
  const compartmentOf = new Map(held.map((f) => [f.noteId as number, f]));

  type Open = { line: CartLine; place: PickPlace | null; noteId: number; number: number };
  const open: Open[] = [];
  withOpen.forEach((l, i) => {
    const f = compartmentOf.get(l.delivery_note_id);
    if (!f || l.offen === 0) return;
    open.push({
      noteId: l.delivery_note_id,
      number: f.number,
      place: places[i] ?? null,
      line: {
        positionId: l.id,
        auftragId: l.delivery_note_id,
        belegnr: f.belegnr as string,
        fach: { id: f.id, nummer: f.number, code: f.code },
        artikelId: l.artikelId,
        nummer: l.nummer,
        name: l.name,
        ean: l.ean,
        herstellernummer: l.herstellernummer,
        lsmenge: l.lsmenge,
        kommissioniert: l.kommissioniert,
        fehlmenge: l.fehlmenge,
        offen: l.offen,
        bestand: places[i]?.bestand ?? 0,
      },
    });
  });
  open.sort((a, b) => a.number - b.number || a.line.positionId - b.line.positionId);

  const deferrals = await db
    .selectFrom('pick_trip_deferrals')
    .select('location_id')
    .where('trip_id', '=', tripId)
    .orderBy('deferred_at')
    .orderBy('location_id')
    .execute();
  const deferredRank = new Map(deferrals.map((d, i) => [d.location_id, i]));
  const stops = new Map<number, { code: string; stock: Map<number, number>; positionen: CartLine[] }>();
  for (const { line, place } of open) {
    if (!place) continue;
    const stop = stops.get(place.id) ?? {
      code: place.code,
      stock: new Map<number, number>(),
      positionen: [] as CartLine[],
    };
    stop.stock.set(line.artikelId, place.bestand);
    stop.positionen.push(line);
    stops.set(place.id, stop);
  }
  const route: CartStop[] = [...stops.entries()]
    .map(([id, stop]) => ({
      lagerplatz: { id, code: stop.code, bestand: [...stop.stock.values()].reduce((sum, n) => sum + n, 0) },
      zurueckgestellt: deferredRank.has(id),
      positionen: stop.positionen,
    }))
    .sort((a, b) => {
      const ra = deferredRank.get(a.lagerplatz.id);
      const rb = deferredRank.get(b.lagerplatz.id);
      if (ra === undefined && rb === undefined) return byCode(a.lagerplatz.code, b.lagerplatz.code);
      if (ra === undefined) return -1;
      if (rb === undefined) return 1;
      return ra - rb;
    });

  const faecher: CartCompartment[] = compartments.map((f) => {
    if (f.noteId === null) return { id: f.id, nummer: f.number, code: f.code, auftrag: null };
    const own = withOpen.filter((l) => l.delivery_note_id === f.noteId);
    const ownOpen = open.filter((o) => o.noteId === f.noteId);
    return {
      id: f.id,
      nummer: f.number,
      code: f.code,
      auftrag: {
        id: f.noteId,
        belegnr: f.belegnr as string,
        fertig: own.every((l) => l.offen === 0),
        fehlmenge: own.some((l) => l.fehlmenge > 0),
        offenStueck: ownOpen.reduce((sum, o) => sum + o.line.offen, 0),
        offenStopps: new Set(ownOpen.flatMap((o) => (o.place ? [o.place.id] : []))).size,
      },
    };
  });

  return {
    id: trip.id,
    wagen: { id: trip.cart_id, code: trip.code },
    faecher,
    route,
    ohneBestand: open.filter((o) => o.place === null).map((o) => o.line),
    entnahmen: await puts(db, tripId),
    fertig: withOpen.every((l) => l.offen === 0),
  };
}

/**
 * The trip's puts that may still be reversed, newest first: its journal rows from a location into a
 * compartment, not reversed, whose note is not packed. A put that took from two slots of the location (two
 * MHDs) is two rows, each reversed on its own.
 */
async function puts(db: Db, tripId: number): Promise<CartPut[]> {
  return db
    .selectFrom('movements as m')
    .innerJoin('delivery_notes as n', 'n.id', 'm.delivery_note_id')
    .innerJoin('pick_cart_compartments as f', 'f.id', 'm.compartment_id')
    .innerJoin('articles as a', 'a.id', 'm.article_id')
    .innerJoin('locations as p', 'p.id', 'm.from_location_id')
    .innerJoin('delivery_note_lines as l', (join) =>
      join.onRef('l.delivery_note_id', '=', 'm.delivery_note_id').onRef('l.article_id', '=', 'm.article_id'),
    )
    .select([
      'm.id as bewegungId',
      sql<number>`min(l.id)::int`.as('positionId'),
      'n.belegnr',
      'f.id as fachId',
      'f.number',
      'f.code as fachCode',
      'a.nummer',
      'p.code as lagerplatz',
      'm.amount as menge',
    ])
    .where('m.pick_trip_id', '=', tripId)
    .where('m.from_location_id', 'is not', null)
    .where('n.status', '<>', 'gepackt')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('movements as r').select('r.id').whereRef('r.reverses_movement_id', '=', 'm.id')),
      ),
    )
    .groupBy(['m.id', 'n.belegnr', 'f.id', 'f.number', 'f.code', 'a.nummer', 'p.code', 'm.amount'])
    .orderBy('m.id', 'desc')
    .execute()
    .then((rows) =>
      rows.map((r) => ({
        bewegungId: r.bewegungId,
        positionId: r.positionId,
        belegnr: r.belegnr,
        fach: { id: r.fachId, nummer: r.number, code: r.fachCode },
        nummer: r.nummer,
        lagerplatz: r.lagerplatz,
        menge: r.menge,
      })),
    );
}
