import { sql } from 'kysely';
import {
  chunks,
  type ImportKind,
  idsByKey,
  type Line,
  summary,
  upsertSet,
  writeInChunks,
} from '../framework.ts';
import { because, summaryLine } from '../messages.ts';
import { ARTICLE_NUMBER_ALIASES, LOCATION_ALIASES } from '../rows.ts';

interface LocationRow {
  code: string;
  name: string;
  lagertyp: string;
  isLhm: boolean;
  /** With a minimum: the article whose replenishment minimum this row sets (0 removes it). */
  minimum: { nummer: string; amount: number } | null;
}

/**
 * Locations by Lagerplatz, with their replenishment minimums: a location with minimums for several
 * articles stands on several rows (one per article), the location's own columns the same on each.
 */
export const locations: ImportKind<LocationRow> = {
  name: 'locations',
  columns: [
    {
      key: 'code',
      header: 'Lagerplatz',
      aliases: [...LOCATION_ALIASES, 'Code'],
      required: true,
    },
    { key: 'name', header: 'Bezeichnung', aliases: ['Lagerplatzbezeichnung', 'Name'] },
    { key: 'lagertyp', header: 'Lagertyp', aliases: ['Lagerart', 'Typ'] },
    { key: 'isLhm', header: 'LHM', aliases: ['Ladungsträger', 'ist LHM'] },
    { key: 'nummer', header: 'Artikelnummer', aliases: ARTICLE_NUMBER_ALIASES },
    { key: 'minimum', header: 'Mindestbestand', aliases: ['Minimum', 'Meldebestand', 'Nachschubminimum'] },
  ],
  read(r) {
    const code = r.text('code', { required: true, max: 100 });
    const name = r.text('name', { max: 200, fold: true });
    const lagertyp = r.text('lagertyp', { max: 100 });
    const isLhm = r.boolean('isLhm', false);
    const nummer = r.text('nummer', { max: 100 });
    const amount = r.whole('minimum', 0, 1_000_000);
    if (nummer && amount === null) r.refuse('minimum', because('minimumMissing', {}));
    if (!nummer && amount !== null && amount !== undefined)
      r.refuse('nummer', because('minimumWithoutArticle', {}));
    if (!code || name === undefined || lagertyp === undefined || isLhm === undefined) return undefined;
    if (nummer === undefined || amount === undefined) return undefined;
    return {
      code,
      name: name ?? code,
      lagertyp: lagertyp ?? '',
      isLhm,
      minimum: nummer && amount !== null ? { nummer, amount } : null,
    };
  },
  unit: (l) => l.code,
  async check(ctx, rows) {
    const first = new Map<string, Line<LocationRow>>();
    const pairs = new Map<string, number>();
    for (const entry of rows) {
      const { line, row } = entry;
      const earlier = first.get(row.code);
      if (!earlier) first.set(row.code, entry);
      else {
        const differs = (['name', 'lagertyp', 'isLhm'] as const).find(
          (key) => ctx.present.has(key) && earlier.row[key] !== row[key],
        );
        if (differs) ctx.refuse(line, differs, because('differsInLocation', { line: earlier.line }));
      }
      if (row.minimum) {
        const pair = `${row.code}\u0000${row.minimum.nummer}`;
        const pairLine = pairs.get(pair);
        if (pairLine !== undefined) ctx.refuse(line, 'nummer', because('minimumTwice', { line: pairLine }));
        else pairs.set(pair, line);
      }
    }
    // A pick cart's or compartment's code is scanned where a location's is (decision 33): one scan, one thing.
    const { rows: taken } = await sql<{ code: string }>`
      select code from pick_carts where code = any(${[...first.keys()]}::text[])
      union all
      select code from pick_cart_compartments where code = any(${[...first.keys()]}::text[])`.execute(
      ctx.trx,
    );
    const takenCodes = new Set(taken.map((t) => t.code));
    for (const { line, row } of rows)
      if (takenCodes.has(row.code)) ctx.refuse(line, 'code', because('codeTaken', { code: row.code }));
    const articleIds = await idsByKey(
      ctx.trx,
      'articles',
      rows.flatMap((r) => (r.row.minimum ? [r.row.minimum.nummer] : [])),
    );
    for (const { line, row } of rows) {
      if (row.minimum && !articleIds.has(row.minimum.nummer)) {
        ctx.refuse(line, 'nummer', because('unknownArticle', { nummer: row.minimum.nummer }));
      }
    }
  },
  async write(ctx, rows) {
    const seen = new Set<string>();
    const places = rows.filter((r) => !seen.has(r.row.code) && seen.add(r.row.code));
    const set = upsertSet(
      'locations',
      { code: 'code', name: 'name', lagertyp: 'lagertyp', isLhm: 'is_lhm' },
      ctx.present,
      ['code'],
    );
    const counts = await writeInChunks(places, async (part) => {
      const { rows: written } = await sql<{ inserted: boolean }>`
        insert into locations (code, name, lagertyp, is_lhm)
        select * from unnest(${part.map((l) => l.code)}::text[], ${part.map((l) => l.name)}::text[],
                             ${part.map((l) => l.lagertyp)}::text[], ${part.map((l) => l.isLhm)}::boolean[])
        on conflict (code) do update set ${set}
        returning (xmax = 0) as inserted`.execute(ctx.trx);
      return written;
    });
    const result = [summary('locations', counts)];

    const minimums = rows.flatMap((r) => (r.row.minimum ? [{ code: r.row.code, ...r.row.minimum }] : []));
    if (minimums.length > 0) {
      const locationIds = await idsByKey(
        ctx.trx,
        'locations',
        minimums.map((m) => m.code),
      );
      const articleIds = await idsByKey(
        ctx.trx,
        'articles',
        minimums.map((m) => m.nummer),
      );
      const keyed = minimums.map((m) => ({
        location: locationIds.get(m.code) ?? -1,
        article: articleIds.get(m.nummer) ?? -1,
        amount: m.amount,
      }));
      let set = 0;
      let removed = 0;
      for (const part of chunks(keyed)) {
        const toSet = part.filter((m) => m.amount > 0);
        const toRemove = part.filter((m) => m.amount === 0);
        const written = await sql`
          insert into replenishment_minimums (location_id, article_id, minimum)
          select * from unnest(${toSet.map((m) => m.location)}::int[], ${toSet.map((m) => m.article)}::int[],
                               ${toSet.map((m) => m.amount)}::int[])
          on conflict (location_id, article_id) do update set minimum = excluded.minimum
          where replenishment_minimums.minimum <> excluded.minimum
          returning 1`.execute(ctx.trx);
        set += written.rows.length;
        const deleted = await sql`
          delete from replenishment_minimums m
          using unnest(${toRemove.map((m) => m.location)}::int[], ${toRemove.map((m) => m.article)}::int[]) r(location_id, article_id)
          where m.location_id = r.location_id and m.article_id = r.article_id
          returning 1`.execute(ctx.trx);
        removed += deleted.rows.length;
      }
      result.push(summaryLine('minimums', { set, removed, unchanged: minimums.length - set - removed }));
    }
    return result;
  },
};
