import { type Kysely, sql } from 'kysely';
import type { LocationCode, ReceiptId, ReceiptLineId } from '../../../contract/ids.ts';
import { type Receipt, receiptPushMessages, wareneingangTexts as t } from '../../../contract/wareneingang.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { book, ensureRoom, lockStockRows } from '../../domain/stock.ts';
import type { Line } from '../../import/framework.ts';
import { checkReceipts, type ReceiptRow, writeReceipts } from '../../import/kinds/receipts.ts';
import { importRecords } from '../../import/run.ts';
import { locationByCode } from '../../repositories/location.repository.ts';

type Db = Kysely<Database>;

/** A receipt with its lines as the handheld shows it, by id. */
async function receiptById(db: Db, id: ReceiptId): Promise<Receipt> {
  const head = await db
    .selectFrom('receipts')
    .select(['nummer', 'lieferant', 'status', 'closed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('receipt_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select([
      'l.id',
      'a.id as article_id',
      'a.nummer',
      'a.name',
      'a.ean',
      'a.herstellernummer',
      'a.charge_required',
      'a.mhd_required',
      'l.charge',
      'l.mhd',
      'l.expected',
      'l.received',
      'l.fehlmenge',
      'l.mehrmenge',
    ])
    .where('l.receipt_id', '=', id)
    .orderBy('l.id')
    .execute();
  return {
    nummer: head.nummer,
    lieferant: head.lieferant,
    status: head.status,
    abgeschlossenAm: head.closed_at?.toISOString() ?? null,
    positionen: lines.map((l) => ({
      position: l.id,
      artikelId: l.article_id,
      nummer: l.nummer,
      name: l.name,
      ean: l.ean,
      herstellernummer: l.herstellernummer,
      chargePflicht: l.charge_required,
      mhdPflicht: l.mhd_required,
      charge: l.charge,
      mhd: l.mhd,
      erwartet: l.expected,
      erhalten: l.received,
      fehlmenge: l.fehlmenge,
      mehrmenge: l.mehrmenge,
    })),
  };
}

export async function receiptByNumber(db: Db, receiptNumber: string): Promise<Receipt> {
  const found = await db
    .selectFrom('receipts')
    .select('id')
    .where('nummer', '=', receiptNumber)
    .executeTakeFirst();
  if (!found) throw notFound(t.notFound(receiptNumber));
  return receiptById(db, found.id as ReceiptId);
}

/**
 * Where to put a line's goods (issue 22): a location (not a load carrier) that already holds this article
 * with this Charge — the article's fixed location first, then the one holding most; else its fixed location
 * (the pick place with a replenishment minimum: DESIGN's data model has no other); else the first empty
 * location of the article's Lagertyp, which is its fixed location's, else the one of most of the locations
 * holding it — or, for an article in stock nowhere yet (so of no known Lagertyp), the first empty location
 * of any type (issue 36.9). None of these: no suggestion, the worker scans a location.
 */
export async function suggestLocation(db: Db, lineId: ReceiptLineId, scannedCharge: string | undefined) {
  const line = await db
    .selectFrom('receipt_lines')
    .select(['article_id', 'charge'])
    .where('id', '=', lineId)
    .executeTakeFirst();
  if (!line) throw notFound(t.unknownPosition);
  const article = line.article_id;
  const charge = scannedCharge?.trim() || line.charge || null;
  const holds = await sql<{ code: string }>`
    select l.code from stock s join locations l on l.id = s.location_id
    where s.article_id = ${article} and s.charge is not distinct from ${charge} and not l.is_lhm
    group by l.id, l.code
    order by exists (select 1 from replenishment_minimums m
                     where m.location_id = l.id and m.article_id = ${article}) desc,
             sum(s.amount) desc, l.code
    limit 1`.execute(db);
  if (holds.rows[0]) return { code: holds.rows[0].code, grund: 'holds' as const };
  const fixed = await sql<{ code: string; lagertyp: string }>`
    select l.code, l.lagertyp from replenishment_minimums m join locations l on l.id = m.location_id
    where m.article_id = ${article} order by l.code limit 1`.execute(db);
  if (fixed.rows[0]) return { code: fixed.rows[0].code, grund: 'fixed' as const };
  const empty = await sql<{ code: string }>`
    with typ as (
      select l.lagertyp from stock s join locations l on l.id = s.location_id
      where s.article_id = ${article} and not l.is_lhm
      group by l.lagertyp order by count(*) desc, l.lagertyp limit 1
    )
    select l.code from locations l
    where not l.is_lhm and not exists (select 1 from stock s where s.location_id = l.id)
      and (l.lagertyp = (select lagertyp from typ) or not exists (select 1 from typ))
    order by l.code limit 1`.execute(db);
  if (empty.rows[0]) return { code: empty.rows[0].code, grund: 'empty' as const };
  return { code: null, grund: null };
}

/** The receipt of this number, locked for this transaction: bookings and 'Abschließen' take turns. */
async function lockOpenReceipt(db: Db, receiptNumber: string) {
  const receipt = await db
    .selectFrom('receipts')
    .select(['id', 'status'])
    .where('nummer', '=', receiptNumber)
    .forUpdate()
    .executeTakeFirst();
  if (!receipt) throw notFound(t.notFound(receiptNumber));
  if (receipt.status !== 'offen') throw conflict(t.closed(receiptNumber));
  return { id: receipt.id as ReceiptId };
}

/** What a booking or 'Abschließen' answers: the sentence to show and the receipt as it is now. */
export interface ReceiptOutcome {
  message: string;
  receipt: Receipt;
}

/**
 * Books received goods of one line onto a location: the stock slot (article, Charge, MHD), the journal row
 * (kind `wareneingang`) and the line's received amount, in the caller's transaction (the exactly-once one).
 * More than is open only with `surplusConfirmed` (the screen asked).
 */
export async function bookReceipt(
  db: Db,
  input: {
    receiptNumber: string;
    lineId: ReceiptLineId;
    locationCode: LocationCode;
    amount: number;
    charge: string | null;
    mhd: string | null;
    surplusConfirmed: boolean;
    userId: number;
    requestKey: string | null;
  },
): Promise<ReceiptOutcome> {
  if (input.amount < 1) throw invalid(t.amountInvalid);
  const receipt = await lockOpenReceipt(db, input.receiptNumber);
  const line = await db
    .selectFrom('receipt_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select(['l.id', 'l.charge', 'l.mhd', 'l.expected', 'l.received', 'a.id as article_id', 'a.nummer'])
    .select(['a.charge_required', 'a.mhd_required'])
    .where('l.id', '=', input.lineId)
    .where('l.receipt_id', '=', receipt.id)
    // The line only: `for update` of the join also locked the article's row, which every other booking's
    // journal insert (its foreign key) waits on — a pick or Umbuchung of the article holding the stock rows
    // this booking locks next deadlocked with it on PostgreSQL (1 s, then retried).
    .forUpdate('l')
    .executeTakeFirst();
  if (!line) throw notFound(t.unknownPosition);
  const typed = input.charge?.trim() || null;
  if (line.charge && typed && typed !== line.charge) throw invalid(t.chargeMismatch(typed, line.charge));
  const charge = typed ?? line.charge;
  if (line.charge_required && !charge) throw invalid(t.chargeMissing);
  const mhd = input.mhd ?? line.mhd;
  if (line.mhd_required && !mhd) throw invalid(t.mhdMissing);
  const open = Math.max(line.expected - line.received, 0);
  if (input.amount > open && !input.surplusConfirmed) throw conflict(t.overNotConfirmed(input.amount, open));

  const location = await locationByCode(db, input.locationCode);
  const rows = await lockStockRows(db, line.article_id, [location.id]);
  ensureRoom(
    rows.reduce((sum, row) => sum + row.amount, 0),
    input.amount,
    { article: line.nummer, location: location.code },
  );
  await book(db, {
    add: {
      slot: { location_id: location.id, article_id: line.article_id, charge, mhd },
      amount: input.amount,
    },
    movement: {
      kind: 'wareneingang',
      article_id: line.article_id,
      to_location_id: location.id,
      amount: input.amount,
      charge,
      mhd,
      user_id: input.userId,
      request_key: input.requestKey,
      receipt_id: receipt.id,
    },
  });
  await db
    .updateTable('receipt_lines')
    .set({ received: sql`received + ${input.amount}` })
    .where('id', '=', line.id)
    .execute();
  return {
    message: t.booked(input.amount, line.nummer, location.code),
    receipt: await receiptById(db, receipt.id),
  };
}

/**
 * 'Abschließen': each line's short and over delivery is recorded (and journalled for the export); the receipt
 * is read-only afterwards.
 */
export async function closeReceipt(
  db: Db,
  input: { receiptNumber: string; userId: number },
): Promise<ReceiptOutcome> {
  const receipt = await lockOpenReceipt(db, input.receiptNumber);
  await db
    .updateTable('receipt_lines')
    .set({
      fehlmenge: sql`greatest(expected - received, 0)`,
      mehrmenge: sql`greatest(received - expected, 0)`,
    })
    .where('receipt_id', '=', receipt.id)
    .execute();
  await db
    .updateTable('receipts')
    .set({ status: 'abgeschlossen', closed_at: sql`now()`, closed_by: input.userId })
    .where('id', '=', receipt.id)
    .execute();
  // The export's journal of differences (feed receiptdifferences), at the closing time.
  await sql`insert into receipt_differences
      (receipt_id, receipt_line_id, article_id, charge, mhd, expected, received, fehlmenge, mehrmenge, user_id)
    select receipt_id, id, article_id, charge, mhd, expected, received, fehlmenge, mehrmenge, ${input.userId}::integer
    from receipt_lines where receipt_id = ${receipt.id} and (fehlmenge > 0 or mehrmenge > 0)
    order by id`.execute(db);
  return {
    message: t.closedMessage(input.receiptNumber),
    receipt: await receiptById(db, receipt.id),
  };
}

/** The JSON field each import column is in the integration call. */
const PUSH_FIELDS: Record<string, string> = {
  nummer: 'number',
  lieferant: 'supplier',
  article: 'article',
  expected: 'expected',
  charge: 'charge',
  mhd: 'mhd',
};

/**
 * The integration call: one receipt, whole, through the import's checks and writes (all or nothing). A
 * refusal lists every problem as `lines[i].field: reason`.
 */
export async function pushReceipt(
  db: Db,
  number: string,
  body: {
    supplier?: string | undefined;
    lines: { article: string; expected: number; charge?: string | null; mhd?: string | null }[];
  },
) {
  const rows: Line<ReceiptRow>[] = body.lines.map((line, index) => ({
    line: index,
    row: {
      nummer: number,
      lieferant: body.supplier ?? null,
      article: line.article,
      expected: line.expected,
      charge: line.charge?.trim() || null,
      mhd: line.mhd ?? null,
    },
  }));
  const present = new Set(['nummer', 'article', 'expected', 'charge', 'mhd']);
  if (body.supplier !== undefined) present.add('lieferant');
  const existed = await db
    .selectFrom('receipts')
    .select('id')
    .where('nummer', '=', number)
    .executeTakeFirst();
  const outcome = await importRecords(db, rows, {
    present,
    header: (key) => PUSH_FIELDS[key] ?? key,
    check: checkReceipts,
    write: writeReceipts,
  });
  if (outcome.refused !== null) {
    const problems = outcome.refused.map((r) =>
      r.column === 'number' ? `${r.column}: ${r.reason}` : `lines[${r.line}].${r.column}: ${r.reason}`,
    );
    // Lines refused only because another line of the receipt was are noise here: one receipt is one call.
    const own = problems.filter((p) => !/of the same receipt is refused$/.test(p));
    throw invalid(receiptPushMessages.refused(own));
  }
  return { number, created: !existed, lines: outcome.result.lines };
}
