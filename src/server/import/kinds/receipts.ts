import { sql } from 'kysely';
import { chunks, type Db, type ImportContext, type ImportKind, idsByKey, type Line } from '../framework.ts';
import { because, summaryLine } from '../messages.ts';
import { ARTICLE_NUMBER_ALIASES } from '../rows.ts';

/** One row: a line of a receipt (the receipt's own columns repeat on each of its rows). */
export interface ReceiptRow {
  nummer: string;
  /** null: the column is absent or the cell empty for an existing receipt (keeps its value). */
  lieferant: string | null;
  article: string;
  expected: number;
  charge: string | null;
  mhd: string | null;
}

interface StoredLine {
  id: number;
  receipt_id: number;
  article_id: number;
  nummer: string;
  charge: string | null;
  mhd: string | null;
  expected: number;
  received: number;
}

interface StoredReceipt {
  id: number;
  lieferant: string;
  status: 'offen' | 'abgeschlossen';
}

export interface ReceiptCounts {
  receipts: { inserted: number; updated: number; total: number };
  lines: { added: number; changed: number; removed: number };
}

const lineKey = (article: string | number, charge: string | null, mhd: string | null) =>
  JSON.stringify([article, charge, mhd]);

/**
 * Expected receipts (Wareneingänge, issue 22), one row per line: Wareneingang, Lieferant, Artikelnummer,
 * Menge, and the Charge and MHD the supplier announces. The file's lines are the receipt's lines, matched by
 * (article, Charge, MHD): what was received on a line stays, a line the file no longer has is removed unless
 * goods were booked on it, and a closed receipt cannot change. A receipt whose rows are not all good is
 * refused whole. The integration call `PUT /api/integration/receipts/{number}` runs the same checks.
 */
export const receipts: ImportKind<ReceiptRow> = {
  name: 'receipts',
  columns: [
    {
      key: 'nummer',
      header: 'Wareneingang',
      aliases: ['Belegnr', 'Belegnummer', 'WE-Nummer', 'Wareneingangsnummer', 'Avis', 'Avisnummer'],
      required: true,
    },
    { key: 'lieferant', header: 'Lieferant', aliases: ['Lieferantenname', 'Kreditor'] },
    { key: 'article', header: 'Artikelnummer', aliases: ARTICLE_NUMBER_ALIASES, required: true },
    {
      key: 'expected',
      header: 'Menge',
      aliases: ['Sollmenge', 'Erwartet', 'Bestellmenge', 'Anzahl'],
      required: true,
    },
    { key: 'charge', header: 'Charge', aliases: ['Chargennummer', 'Los', 'Lot'] },
    { key: 'mhd', header: 'MHD', aliases: ['Mindesthaltbarkeit', 'Mindesthaltbarkeitsdatum', 'Haltbar bis'] },
  ],
  read(r) {
    const nummer = r.text('nummer', { required: true, max: 200 });
    const lieferant = r.text('lieferant', { max: 200, fold: true });
    const article = r.text('article', { required: true, max: 100 });
    const expected = r.whole('expected', 1, 1_000_000, true);
    const charge = r.text('charge', { max: 50 });
    const mhd = r.date('mhd');
    if (!nummer || lieferant === undefined || !article || expected === undefined || expected === null)
      return undefined;
    if (charge === undefined || mhd === undefined) return undefined;
    return { nummer, lieferant, article, expected, charge, mhd };
  },
  unit: (r) => r.nummer,
  async check(ctx, rows) {
    await checkReceipts(ctx, rows);
  },
  async write(ctx, rows) {
    const counts = await writeReceipts(ctx, rows);
    const { inserted, updated, total } = counts.receipts;
    return [
      summaryLine('counts', {
        what: 'receipts',
        inserted,
        updated,
        unchanged: total - inserted - updated,
      }),
      summaryLine('receiptLines', {
        inserted: counts.lines.added,
        updated: counts.lines.changed,
        removed: counts.lines.removed,
      }),
    ];
  },
};

export async function checkReceipts(ctx: ImportContext, rows: Line<ReceiptRow>[]): Promise<void> {
  const byReceipt = groupByReceipt(rows);
  const articleIds = await idsByKey(
    ctx.trx,
    'articles',
    rows.map((r) => r.row.article),
  );
  const stored = await storedReceipts(ctx.trx, [...byReceipt.keys()]);
  for (const [nummer, receiptRows] of byReceipt) {
    const [first] = receiptRows;
    if (!first) continue;
    const receipt = stored.receipts.get(nummer);
    const lineOf = new Map<string, number>();
    for (const { line, row } of receiptRows) {
      if (row.lieferant !== null && first.row.lieferant !== null && row.lieferant !== first.row.lieferant)
        ctx.refuse(line, 'lieferant', because('differsInReceipt', { line: first.line }));
      if (!articleIds.has(row.article))
        ctx.refuse(line, 'article', because('unknownArticle', { nummer: row.article }));
      const key = lineKey(row.article, row.charge, row.mhd);
      const earlier = lineOf.get(key);
      if (earlier !== undefined) ctx.refuse(line, 'article', because('receiptLineTwice', { line: earlier }));
      else lineOf.set(key, line);
    }
    if (!receipt) continue;
    // What was received stays: a line with goods booked on it is never removed.
    const storedLines = stored.lines.get(receipt.id) ?? [];
    let changes =
      storedLines.length !== lineOf.size ||
      (first.row.lieferant !== null && first.row.lieferant !== receipt.lieferant);
    for (const s of storedLines) {
      const line = lineOf.get(lineKey(s.nummer, s.charge, s.mhd));
      const row = receiptRows.find((r) => r.line === line)?.row;
      if (line === undefined || !row) {
        changes = true;
        if (s.received > 0)
          ctx.refuse(
            first.line,
            'article',
            because('receivedLineMissing', {
              nummer: s.nummer,
              charge: s.charge ?? '',
              received: s.received,
            }),
          );
        continue;
      }
      if (row.expected !== s.expected) changes = true;
    }
    if (changes && receipt.status === 'abgeschlossen')
      ctx.refuse(first.line, 'nummer', because('receiptClosed', { nummer }));
  }
  // A receipt is imported whole or not at all.
  for (const receiptRows of byReceipt.values()) {
    const bad = receiptRows.find((r) => ctx.isRefused(r.line));
    if (!bad) continue;
    for (const { line } of receiptRows)
      if (!ctx.isRefused(line)) ctx.refuse(line, 'nummer', because('receiptLineRefused', { line: bad.line }));
  }
}

export async function writeReceipts(ctx: ImportContext, rows: Line<ReceiptRow>[]): Promise<ReceiptCounts> {
  const byReceipt = groupByReceipt(rows);
  const stored = await storedReceipts(ctx.trx, [...byReceipt.keys()]);
  const counts: ReceiptCounts = {
    receipts: { inserted: 0, updated: 0, total: byReceipt.size },
    lines: { added: 0, changed: 0, removed: 0 },
  };
  const heads = [...byReceipt.values()].flatMap((r) => (r[0] ? [r[0].row] : []));
  for (const part of chunks(heads)) {
    const { rows: written } = await sql<{ inserted: boolean }>`
      insert into receipts (nummer, lieferant)
      select * from unnest(${part.map((h) => h.nummer)}::text[],
                           ${part.map((h) => h.lieferant ?? stored.receipts.get(h.nummer)?.lieferant ?? '')}::text[])
      on conflict (nummer) do update set lieferant = excluded.lieferant
        where receipts.lieferant is distinct from excluded.lieferant
      returning (xmax = 0) as inserted`.execute(ctx.trx);
    for (const w of written) {
      if (w.inserted) counts.receipts.inserted++;
      else counts.receipts.updated++;
    }
  }

  const receiptIds = await receiptIdsByNumber(ctx.trx, [...byReceipt.keys()]);
  const articleIds = await idsByKey(
    ctx.trx,
    'articles',
    rows.map((r) => r.row.article),
  );
  const existing = new Map<string, StoredLine>();
  for (const lines of stored.lines.values())
    for (const l of lines) existing.set(`${l.receipt_id}:${lineKey(l.article_id, l.charge, l.mhd)}`, l);
  const inserts: {
    receipt: number;
    article: number;
    charge: string | null;
    mhd: string | null;
    expected: number;
  }[] = [];
  const updates: { id: number; expected: number }[] = [];
  const keep = new Set<number>();
  for (const { row } of rows) {
    const receipt = receiptIds.get(row.nummer) ?? -1;
    const article = articleIds.get(row.article) ?? -1;
    const old = existing.get(`${receipt}:${lineKey(article, row.charge, row.mhd)}`);
    if (!old) inserts.push({ receipt, article, charge: row.charge, mhd: row.mhd, expected: row.expected });
    else {
      keep.add(old.id);
      if (old.expected !== row.expected) updates.push({ id: old.id, expected: row.expected });
    }
  }
  const removals = [...existing.values()].filter((l) => !keep.has(l.id)).map((l) => l.id);
  for (const part of chunks(inserts)) {
    await sql`
      insert into receipt_lines (receipt_id, article_id, charge, mhd, expected)
      select * from unnest(${part.map((l) => l.receipt)}::int[], ${part.map((l) => l.article)}::int[],
                           ${part.map((l) => l.charge)}::text[], ${part.map((l) => l.mhd)}::date[],
                           ${part.map((l) => l.expected)}::int[])`.execute(ctx.trx);
  }
  for (const part of chunks(updates)) {
    await sql`
      update receipt_lines l set expected = u.expected
      from unnest(${part.map((l) => l.id)}::int[], ${part.map((l) => l.expected)}::int[]) u(id, expected)
      where l.id = u.id`.execute(ctx.trx);
  }
  for (const part of chunks(removals)) {
    // Only lines nothing was received on go (checked above; again here: a booking may have come since).
    const { rows: deleted } = await sql`
      delete from receipt_lines where id = any(${part}::int[]) and received = 0 returning id`.execute(
      ctx.trx,
    );
    if (deleted.length !== part.length)
      throw new Error('goods were received on a receipt while it was imported; run the import again');
  }
  counts.lines = { added: inserts.length, changed: updates.length, removed: removals.length };
  return counts;
}

function groupByReceipt(rows: Line<ReceiptRow>[]): Map<string, Line<ReceiptRow>[]> {
  const result = new Map<string, Line<ReceiptRow>[]>();
  for (const r of rows) {
    const list = result.get(r.row.nummer);
    if (list) list.push(r);
    else result.set(r.row.nummer, [r]);
  }
  return result;
}

async function receiptIdsByNumber(db: Db, numbers: string[]): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const part of chunks(numbers, 5000)) {
    const found = await db
      .selectFrom('receipts')
      .select(['id', 'nummer'])
      .where('nummer', '=', sql<string>`any(${part}::text[])`)
      .execute();
    for (const r of found) result.set(r.nummer, r.id);
  }
  return result;
}

/** The receipts of these numbers with their lines, locked: a booking on them waits for the import. */
async function storedReceipts(db: Db, numbers: string[]) {
  const receiptsByNumber = new Map<string, StoredReceipt>();
  const lines = new Map<number, StoredLine[]>();
  for (const part of chunks(numbers, 5000)) {
    const found = await db
      .selectFrom('receipts')
      .select(['id', 'nummer', 'lieferant', 'status'])
      .where('nummer', '=', sql<string>`any(${part}::text[])`)
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const r of found) receiptsByNumber.set(r.nummer, r);
    const ids = found.map((r) => r.id);
    if (ids.length === 0) continue;
    const foundLines = await db
      .selectFrom('receipt_lines as l')
      .innerJoin('articles as a', 'a.id', 'l.article_id')
      .select([
        'l.id',
        'l.receipt_id',
        'l.article_id',
        'a.nummer',
        'l.charge',
        'l.mhd',
        'l.expected',
        'l.received',
      ])
      .where('l.receipt_id', '=', sql<number>`any(${ids}::int[])`)
      .execute();
    for (const l of foundLines) {
      const list = lines.get(l.receipt_id);
      if (list) list.push(l);
      else lines.set(l.receipt_id, [l]);
    }
  }
  return { receipts: receiptsByNumber, lines };
}
