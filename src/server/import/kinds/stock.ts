import { sql } from 'kysely';
import { MAX_STOCK_PER_LOCATION } from '../../../contract/limits.ts';
import { replaceSlots } from '../../domain/stock.ts';
import { chunks, type ImportContext, type ImportKind, idsByKey, type Line } from '../framework.ts';
import { because, summaryLine } from '../messages.ts';
import { ARTICLE_NUMBER_ALIASES, LOCATION_ALIASES } from '../rows.ts';

interface StockRow {
  code: string;
  nummer: string;
  charge: string | null;
  mhd: string | null;
  amount: number;
}

/**
 * Stock per slot (Lagerplatz, Artikelnummer, Charge, MHD): the file's Menge is the ERP's truth and replaces
 * the stored amount (0 empties the slot). Every change is journalled in `movements` (kind 'import', the
 * difference into or out of the location), so the journal keeps adding up to the stock. Slots the file
 * does not name stay as they are.
 */
export const stock: ImportKind<StockRow> = {
  name: 'stock',
  columns: [
    {
      key: 'code',
      header: 'Lagerplatz',
      aliases: LOCATION_ALIASES,
      required: true,
    },
    {
      key: 'nummer',
      header: 'Artikelnummer',
      aliases: ARTICLE_NUMBER_ALIASES,
      required: true,
    },
    { key: 'charge', header: 'Charge', aliases: ['Chargennummer', 'Chargen-Nr.', 'Los', 'Losnummer'] },
    { key: 'mhd', header: 'MHD', aliases: ['Mindesthaltbarkeit', 'Mindesthaltbarkeitsdatum', 'haltbar bis'] },
    {
      key: 'amount',
      header: 'Menge',
      aliases: ['Bestand', 'Lagerbestand', 'Anzahl', 'Stück'],
      required: true,
    },
  ],
  read(r) {
    const code = r.text('code', { required: true, max: 100 });
    const nummer = r.text('nummer', { required: true, max: 100 });
    const charge = r.text('charge', { max: 100 });
    const mhd = r.date('mhd');
    const amount = r.whole('amount', 0, 1_000_000_000, true);
    if (
      !code ||
      !nummer ||
      charge === undefined ||
      mhd === undefined ||
      amount === undefined ||
      amount === null
    ) {
      return undefined;
    }
    return { code, nummer, charge, mhd, amount };
  },
  // An article's slots together: its total on a location is checked against the maximum in one step.
  unit: (s) => s.nummer,
  async check(ctx, rows) {
    const first = new Map<string, number>();
    for (const { line, row } of rows) {
      const slot = [row.code, row.nummer, row.charge ?? '', row.mhd ?? ''].join('\u0000');
      const earlier = first.get(slot);
      if (earlier === undefined) first.set(slot, line);
      else ctx.refuse(line, 'amount', because('slotTwice', { line: earlier }));
    }
    const locationIds = await idsByKey(
      ctx.trx,
      'locations',
      rows.map((r) => r.row.code),
    );
    const needs = new Map<string, { charge: boolean; mhd: boolean }>();
    for (const part of chunks([...new Set(rows.map((r) => r.row.nummer))], 5000)) {
      const found = await ctx.trx
        .selectFrom('articles')
        .select(['nummer', 'charge_required', 'mhd_required'])
        .where('nummer', '=', sql<string>`any(${part}::text[])`)
        .execute();
      for (const a of found) needs.set(a.nummer, { charge: a.charge_required, mhd: a.mhd_required });
    }
    for (const { line, row } of rows) {
      if (!locationIds.has(row.code))
        ctx.refuse(line, 'code', because('unknownLocation', { code: row.code }));
      const article = needs.get(row.nummer);
      if (!article) ctx.refuse(line, 'nummer', because('unknownArticle', { nummer: row.nummer }));
      else {
        if (article.charge && !row.charge && row.amount > 0)
          ctx.refuse(line, 'charge', because('chargeRequired', { nummer: row.nummer }));
        if (article.mhd && !row.mhd && row.amount > 0)
          ctx.refuse(line, 'mhd', because('mhdRequired', { nummer: row.nummer }));
      }
    }
    await refuseOverMaximum(ctx, rows, locationIds);
  },
  async write(ctx, rows) {
    const locationIds = await idsByKey(
      ctx.trx,
      'locations',
      rows.map((r) => r.row.code),
    );
    const articleIds = await idsByKey(
      ctx.trx,
      'articles',
      rows.map((r) => r.row.nummer),
    );
    let up = 0;
    let down = 0;
    for (const chunk of chunks(rows)) {
      // The file's Menge replaces the stored amount, journalled with the difference (domain/stock.ts).
      const counted = await replaceSlots(
        ctx.trx,
        chunk.map(({ row }) => ({
          location_id: locationIds.get(row.code) ?? -1,
          article_id: articleIds.get(row.nummer) ?? -1,
          charge: row.charge,
          mhd: row.mhd,
          amount: row.amount,
        })),
      );
      if (!counted || counted.raced > 0) {
        throw new Error('a booking created a stock slot while it was imported; run the import again');
      }
      up += counted.up;
      down += counted.down;
    }
    return [summaryLine('stock', { up, down, unchanged: rows.length - up - down })];
  },
};

/**
 * The file sets slots; what an article holds on a location is its slots in the file plus the stored ones the
 * file does not name. Above MAX_STOCK_PER_LOCATION every line of that article and location is refused (the
 * bookings refuse the same, src/server/domain/stock.ts). One statement for the whole file: an article's
 * lines may lie far apart.
 */
async function refuseOverMaximum(
  ctx: ImportContext,
  rows: Line<StockRow>[],
  locationIds: Map<string, number>,
): Promise<void> {
  const articleIds = await idsByKey(
    ctx.trx,
    'articles',
    rows.map((r) => r.row.nummer),
  );
  const known = rows.filter(
    (r) => !ctx.isRefused(r.line) && locationIds.has(r.row.code) && articleIds.has(r.row.nummer),
  );
  if (known.length === 0) return;
  const { rows: over } = await sql<{ location_id: number; article_id: number; total: string }>`
    with input as (
      select * from unnest(
        ${known.map((r) => locationIds.get(r.row.code))}::int[], ${known.map((r) => articleIds.get(r.row.nummer))}::int[],
        ${known.map((r) => r.row.charge)}::text[], ${known.map((r) => r.row.mhd)}::date[],
        ${known.map((r) => r.row.amount)}::bigint[]
      ) as i(location_id, article_id, charge, mhd, amount)
    ),
    totals as (select location_id, article_id, sum(amount) as amount from input group by 1, 2),
    kept as (
      select s.location_id, s.article_id, sum(s.amount) as amount
      from stock s join totals t using (location_id, article_id)
      where not exists (
        select 1 from input i
        where i.location_id = s.location_id and i.article_id = s.article_id
          and i.charge is not distinct from s.charge and i.mhd is not distinct from s.mhd)
      group by 1, 2
    )
    select t.location_id, t.article_id, (t.amount + coalesce(k.amount, 0))::text as total
    from totals t left join kept k using (location_id, article_id)
    where t.amount + coalesce(k.amount, 0) > ${MAX_STOCK_PER_LOCATION}`.execute(ctx.trx);
  for (const group of over) {
    for (const { line, row } of known) {
      if (locationIds.get(row.code) !== group.location_id || articleIds.get(row.nummer) !== group.article_id)
        continue;
      ctx.refuse(
        line,
        'amount',
        because('aboveMaximum', {
          nummer: row.nummer,
          code: row.code,
          total: Number(group.total),
          max: MAX_STOCK_PER_LOCATION,
        }),
      );
    }
  }
}
