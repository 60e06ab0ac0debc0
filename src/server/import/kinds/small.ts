import { sql } from 'kysely';
import {
  type ImportKind,
  idsByKey,
  refuseDuplicates,
  summary,
  upsertSet,
  writeInChunks,
} from '../framework.ts';
import { because } from '../messages.ts';
import { NOTE_ALIASES } from '../rows.ts';

const CARRIERS = ['dhl', 'gls', 'dpd', 'ups'];

/** Batches by their number (1 to 6 characters); a known batch stays as it is. */
export const batches: ImportKind<{ id: string }> = {
  name: 'batches',
  columns: [{ key: 'id', header: 'Batch', aliases: ['Batchnummer', 'Batchnr', 'Batch-Nr.'], required: true }],
  read(r) {
    const id = r.text('id', { required: true, max: 6 });
    return id ? { id } : undefined;
  },
  unit: (b) => b.id,
  inFile(ctx, rows) {
    refuseDuplicates(ctx, rows, (b) => b.id, 'id', 'Batch');
  },
  async check() {},
  async write(ctx, rows) {
    const counts = await writeInChunks(rows, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
        insert into batches (id) select * from unnest(${part.map((b) => b.id)}::text[])
        on conflict (id) do nothing
        returning true as inserted`.execute(ctx.trx);
      return written;
    });
    return [summary('batches', counts)];
  },
};

/** Customs carts by Wagennummer. Their state (open, closed) belongs to the app and is left alone. */
export const carts: ImportKind<{ wagennummer: string; bezeichnung: string }> = {
  name: 'carts',
  columns: [
    { key: 'wagennummer', header: 'Wagennummer', aliases: ['Wagen', 'Wagennr', 'Wagen-Nr.'], required: true },
    { key: 'bezeichnung', header: 'Bezeichnung', aliases: ['Name'], required: true },
  ],
  read(r) {
    const wagennummer = r.text('wagennummer', { required: true, max: 50 });
    const bezeichnung = r.text('bezeichnung', { required: true, max: 200, fold: true });
    return wagennummer && bezeichnung ? { wagennummer, bezeichnung } : undefined;
  },
  unit: (c) => c.wagennummer,
  inFile(ctx, rows) {
    refuseDuplicates(ctx, rows, (c) => c.wagennummer, 'wagennummer', 'Wagennummer');
  },
  async check() {},
  async write(ctx, rows) {
    const counts = await writeInChunks(rows, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
        insert into carts (wagennummer, bezeichnung)
        select * from unnest(${part.map((c) => c.wagennummer)}::text[], ${part.map((c) => c.bezeichnung)}::text[])
        on conflict (wagennummer) do update set bezeichnung = excluded.bezeichnung
        where carts.bezeichnung is distinct from excluded.bezeichnung
        returning (xmax = 0) as inserted`.execute(ctx.trx);
      return written;
    });
    return [summary('carts', counts)];
  },
};

interface ShipmentRow {
  tracking: string;
  carrier: string | null;
  belegnr: string | null;
}

/**
 * Shipments (parcels) by tracking number, with their carrier (dhl, gls, dpd, ups; empty: the app derives it
 * from the tracking number) and the delivery note they belong to.
 */
export const shipments: ImportKind<ShipmentRow> = {
  name: 'shipments',
  columns: [
    {
      key: 'tracking',
      header: 'Trackingnummer',
      aliases: ['Sendungsnummer', 'Tracking', 'Trackingnr', 'Paketnummer'],
      required: true,
    },
    {
      key: 'carrier',
      header: 'Versanddienstleister',
      aliases: ['Carrier', 'Paketdienst', 'Dienstleister', 'Spediteur'],
    },
    {
      key: 'belegnr',
      header: 'Belegnr',
      aliases: NOTE_ALIASES,
    },
  ],
  read(r) {
    const tracking = r.text('tracking', { required: true, max: 100 });
    const carrierText = r.text('carrier', { max: 20 });
    const carrier = carrierText ? carrierText.toLowerCase() : carrierText;
    if (carrierText && carrier && !CARRIERS.includes(carrier))
      r.refuse('carrier', because('unknownCarrier', { value: carrierText, carriers: CARRIERS.join(', ') }));
    const belegnr = r.text('belegnr', { max: 200 });
    if (
      !tracking ||
      carrier === undefined ||
      belegnr === undefined ||
      (carrier && !CARRIERS.includes(carrier))
    )
      return undefined;
    return { tracking, carrier, belegnr };
  },
  unit: (s) => s.tracking,
  inFile(ctx, rows) {
    refuseDuplicates(ctx, rows, (s) => s.tracking, 'tracking', 'Trackingnummer');
  },
  async check(ctx, rows) {
    const notes = await idsByKey(
      ctx.trx,
      'delivery_notes',
      rows.flatMap((r) => (r.row.belegnr ? [r.row.belegnr] : [])),
    );
    for (const { line, row } of rows) {
      if (row.belegnr && !notes.has(row.belegnr))
        ctx.refuse(line, 'belegnr', because('unknownNote', { belegnr: row.belegnr }));
    }
  },
  async write(ctx, rows) {
    const notes = await idsByKey(
      ctx.trx,
      'delivery_notes',
      rows.flatMap((r) => (r.row.belegnr ? [r.row.belegnr] : [])),
    );
    const set = upsertSet('shipments', { carrier: 'carrier', belegnr: 'delivery_note_id' }, ctx.present, [
      'tracking',
    ]);
    const counts = await writeInChunks(rows, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
        insert into shipments (tracking, carrier, delivery_note_id)
        select * from unnest(${part.map((s) => s.tracking)}::text[], ${part.map((s) => s.carrier)}::text[],
                             ${part.map((s) => (s.belegnr ? (notes.get(s.belegnr) ?? null) : null))}::int[])
        on conflict (tracking) do update set ${set}
        returning (xmax = 0) as inserted`.execute(ctx.trx);
      return written;
    });
    return [summary('shipments', counts)];
  },
};
