import { sql } from 'kysely';
import { type ImportKind, refuseDuplicates, summary, writeInChunks } from '../framework.ts';
import { because } from '../messages.ts';

/** A cart has 1 to 99 compartments (the profile's notes per cart, migration 2026-11-28-04, has the same bound). */
export const MAX_COMPARTMENTS = 99;

interface PickCartRow {
  code: string;
  compartments: number;
}

/** The compartments' codes of a cart: `<code>-<n>` (KW01-1 … KW01-6), what their labels carry. */
export function compartmentCodes(code: string, compartments: number): string[] {
  return Array.from({ length: compartments }, (_, i) => `${code}-${i + 1}`);
}

/**
 * Pick carts (Kommissionierwagen, issue 41) by their code, with the number of their compartments (Fächer),
 * named `<code>-<n>`. The cart's and its compartments' codes are scanned where a location's is, so neither
 * may be a location's code. Fewer compartments than before remove the ones above — refused for one that
 * ever held a note (its trips and journal name it).
 */
export const pickCarts: ImportKind<PickCartRow> = {
  name: 'pick-carts',
  columns: [
    {
      key: 'code',
      header: 'Kommissionierwagen',
      aliases: ['Pickwagen', 'Wagen', 'Wagencode'],
      required: true,
    },
    {
      key: 'compartments',
      header: 'Fächer',
      aliases: ['Anzahl Fächer', 'Fachanzahl', 'Fach'],
      required: true,
    },
  ],
  read(r) {
    const code = r.text('code', { required: true, max: 40 });
    const compartments = r.whole('compartments', 1, MAX_COMPARTMENTS, true);
    return code && typeof compartments === 'number' ? { code, compartments } : undefined;
  },
  unit: (c) => c.code,
  inFile(ctx, rows) {
    refuseDuplicates(ctx, rows, (c) => c.code, 'code', 'Kommissionierwagen');
  },
  async check(ctx, rows) {
    const codes = rows.flatMap(({ row }) => [row.code, ...compartmentCodes(row.code, row.compartments)]);
    // A location's code, another cart's compartment's code (cart A-1 beside cart A's compartment A-1), or a
    // compartment code that is another cart's code: one scan would name two things.
    const { rows: clashes } = await sql<{ code: string; cart: string | null }>`
      select code, null as cart from locations where code = any(${codes}::text[])
      union all
      select f.code, c.code as cart from pick_cart_compartments f join pick_carts c on c.id = f.cart_id
        where f.code = any(${codes}::text[])
      union all
      select code, code as cart from pick_carts where code = any(${codes}::text[])`.execute(ctx.trx);
    const { rows: used } = await sql<{ cart: string; number: number; code: string }>`
      select c.code as cart, f.number, f.code from pick_cart_compartments f join pick_carts c on c.id = f.cart_id
      where c.code = any(${rows.map((r) => r.row.code)}::text[])
        and exists (select 1 from pick_trip_notes t where t.compartment_id = f.id)`.execute(ctx.trx);
    for (const { line, row } of rows) {
      const own = [row.code, ...compartmentCodes(row.code, row.compartments)];
      // The cart's own code and its own compartments are no clash.
      const clash = clashes.find((c) => own.includes(c.code) && c.cart !== row.code);
      if (clash) ctx.refuse(line, 'code', because('codeTaken', { code: clash.code }));
      const dropped = used.find((u) => u.cart === row.code && u.number > row.compartments);
      if (dropped) ctx.refuse(line, 'compartments', because('compartmentUsed', { code: dropped.code }));
    }
  },
  async write(ctx, rows) {
    const counts = await writeInChunks(rows, async (part) => {
      const { rows: carts } = await sql<{ id: number; code: string; inserted: boolean }>`
        insert into pick_carts (code) select * from unnest(${part.map((c) => c.code)}::text[])
        on conflict (code) do update set code = excluded.code
        returning id, code, (xmax = 0) as inserted`.execute(ctx.trx);
      const idOf = new Map(carts.map((c) => [c.code, c.id]));
      const cartIds = part.map((c) => idOf.get(c.code) ?? 0);
      const { rows: removed } = await sql<{ cart_id: number }>`
        delete from pick_cart_compartments f using unnest(${cartIds}::int[], ${part.map((c) => c.compartments)}::int[])
          as wanted(cart_id, compartments)
        where f.cart_id = wanted.cart_id and f.number > wanted.compartments
        returning f.cart_id`.execute(ctx.trx);
      const { rows: added } = await sql<{ cart_id: number }>`
        insert into pick_cart_compartments (cart_id, number, code)
        select wanted.cart_id, n, wanted.code || '-' || n
        from unnest(${cartIds}::int[], ${part.map((c) => c.code)}::text[], ${part.map((c) => c.compartments)}::int[])
          as wanted(cart_id, code, compartments), generate_series(1, wanted.compartments) as n
        on conflict (cart_id, number) do nothing
        returning cart_id`.execute(ctx.trx);
      const changed = new Set([...removed, ...added].map((r) => r.cart_id));
      return carts.filter((c) => c.inserted || changed.has(c.id)).map((c) => ({ inserted: c.inserted }));
    });
    return [summary('pick carts', counts)];
  },
};
