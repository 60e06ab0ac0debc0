import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import type { ActionRecord } from './scanner.ts';

/**
 * The books of the warehouse, checked like a bank's: what the stock table says must follow from where it
 * started and the journal, and every action the scanners sent must be in the database exactly as often as
 * it was applied — once if it was acknowledged, never if it was refused, at most once if its answer got lost —
 * and the answer stored with its key must be the one the scanner read.
 */
type Db = Kysely<Database>;

export interface Snapshot {
  /** Amount per `location:article`. */
  stock: Map<string, number>;
  /** The journal's last row before the run; later rows are the run's changes. */
  lastMovementId: number;
}

export async function takeSnapshot(db: Db): Promise<Snapshot> {
  const { rows } = await sql<{ location_id: number; article_id: number; amount: number }>`
    select location_id, article_id, sum(amount)::int as amount from stock
    group by location_id, article_id`.execute(db);
  const last = await sql<{ id: number | null }>`select max(id) as id from movements`.execute(db);
  return {
    stock: new Map(rows.map((r) => [`${r.location_id}:${r.article_id}`, r.amount])),
    lastMovementId: last.rows[0]?.id ?? 0,
  };
}

interface Movement {
  article_id: number;
  from_location_id: number | null;
  to_location_id: number | null;
  amount: number;
}

/** Net change per `location:article` from journal rows. */
function netChanges(movements: Movement[]): Map<string, number> {
  const net = new Map<string, number>();
  const add = (key: string, amount: number) => net.set(key, (net.get(key) ?? 0) + amount);
  for (const m of movements) {
    if (m.from_location_id !== null) add(`${m.from_location_id}:${m.article_id}`, -m.amount);
    if (m.to_location_id !== null) add(`${m.to_location_id}:${m.article_id}`, m.amount);
  }
  return net;
}

const byArticle = (perSlot: Map<string, number>) => {
  const totals = new Map<string, number>();
  for (const [key, amount] of perSlot) {
    const article = key.split(':')[1] ?? '';
    totals.set(article, (totals.get(article) ?? 0) + amount);
  }
  return totals;
};

function groupByKey<T extends { request_key: string | null }>(rows: T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) {
    if (row.request_key === null) continue;
    grouped.set(row.request_key, [...(grouped.get(row.request_key) ?? []), row]);
  }
  return grouped;
}

export interface AuditResult {
  violations: string[];
  figures: {
    stockRows: number;
    journalRowsOfRun: number;
    articlesChecked: number;
    keysChecked: number;
  };
}

export async function auditBooks(db: Db, before: Snapshot, actions: ActionRecord[]): Promise<AuditResult> {
  const violations: string[] = [];
  const after = await takeSnapshot(db);

  // 1. No negative stock.
  const negative = await sql<{ n: number }>`select count(*)::int as n from stock where amount < 0`.execute(
    db,
  );
  if ((negative.rows[0]?.n ?? 0) > 0) violations.push(`${negative.rows[0]?.n} stock rows are negative`);

  // 2. The journal and the stock table agree: stock per location and article = everything journalled.
  const journal = await db
    .selectFrom('movements')
    .select(['id', 'article_id', 'from_location_id', 'to_location_id', 'amount', 'request_key'])
    // The inserting transaction's id: rows of one application share it, a second application has another.
    .select(sql<string>`xmin::text`.as('transaction'))
    .orderBy('id')
    .execute();
  const everything = netChanges(journal);
  for (const key of new Set([...everything.keys(), ...after.stock.keys()])) {
    const journalled = everything.get(key) ?? 0;
    const stock = after.stock.get(key) ?? 0;
    if (journalled !== stock)
      violations.push(`location:article ${key}: stock ${stock}, journal says ${journalled}`);
  }

  // 3. Stock per article = stock at the start + the run's journalled changes.
  const ofRun = journal.filter((m) => m.id > before.lastMovementId);
  const expected = byArticle(before.stock);
  for (const [article, change] of byArticle(netChanges(ofRun))) {
    expected.set(article, (expected.get(article) ?? 0) + change);
  }
  const actual = byArticle(after.stock);
  for (const article of new Set([...expected.keys(), ...actual.keys()])) {
    if ((expected.get(article) ?? 0) !== (actual.get(article) ?? 0)) {
      violations.push(
        `article ${article}: stock ${actual.get(article) ?? 0}, start + journal = ${expected.get(article) ?? 0}`,
      );
    }
  }

  // 4. Every key applied at most once: all of a key's rows come from one transaction.
  const sent = new Map(actions.map((a) => [a.key, a]));
  const movementsByKey = new Map<string, typeof journal>();
  for (const m of ofRun) {
    if (m.request_key === null) {
      violations.push(`journal row ${m.id} of the run has no request key`);
      continue;
    }
    const list = movementsByKey.get(m.request_key) ?? [];
    list.push(m);
    movementsByKey.set(m.request_key, list);
  }
  for (const [key, rows] of movementsByKey) {
    const transactions = new Set(rows.map((r) => r.transaction));
    if (transactions.size > 1)
      violations.push(`key ${key} applied ${transactions.size} times in the journal`);
    if (!sent.has(key)) violations.push(`key ${key} in the journal was never sent by a scanner`);
  }
  const counts = await db
    .selectFrom('inventory_counts')
    .select(['request_key', 'counted', 'previous'])
    .where('request_key', 'is not', null)
    .execute();
  const returns = await db
    .selectFrom('wms_returns')
    .select(['request_key', 'amount'])
    .where('request_key', 'is not', null)
    .execute();
  const countsByKey = groupByKey(counts);
  const returnsByKey = groupByKey(returns);
  for (const [table, grouped] of [
    ['inventory_counts', countsByKey],
    ['wms_returns', returnsByKey],
  ] as const) {
    for (const [key, rows] of grouped) {
      if (rows.length > 1) violations.push(`key ${key} applied ${rows.length} times in ${table}`);
      if (!sent.has(key)) violations.push(`key ${key} in ${table} was never sent by a scanner`);
    }
  }

  // 5. Every acknowledged action is there, exactly as sent; every refused one is not; and the key stores the
  // answer the scanner got, so a late copy of the action still on its way answers the same.
  const stored = new Map(
    (await db.selectFrom('idempotency').select(['key', 'status_code']).execute()).map((row) => [
      row.key,
      row.status_code,
    ]),
  );
  for (const action of actions) {
    const moved = movementsByKey.get(action.key) ?? [];
    const counted = countsByKey.get(action.key) ?? [];
    const returned = returnsByKey.get(action.key) ?? [];
    const label = `${action.kind} ${action.key}`;
    if (action.outcome === 'open') {
      violations.push(`${label} never got an answer, even after the faults stopped`);
      continue;
    }
    const storedStatus = stored.get(action.key);
    if (storedStatus !== action.status)
      violations.push(
        `${label}: the scanner read ${action.status}, its key stores ${storedStatus ?? 'nothing'}`,
      );
    if (action.outcome === 'refused') {
      if (moved.length + counted.length + returned.length > 0)
        violations.push(`${label} refused (${action.status}), yet rows with its key exist`);
      continue;
    }
    const body = action.body as Record<string, number>;
    const sum = moved.reduce((total, m) => total + m.amount, 0);
    switch (action.kind) {
      case 'move':
        if (
          sum !== body.amount ||
          moved.some((m) => m.from_location_id !== body.from || m.to_location_id !== body.to)
        )
          violations.push(`${label} acknowledged, journal holds ${sum} of ${body.amount} moved`);
        break;
      case 'moveLocation':
        if (
          moved.length === 0 ||
          moved.some((m) => m.from_location_id !== body.from || m.to_location_id !== body.to)
        )
          violations.push(`${label} acknowledged, journal holds ${moved.length} matching rows`);
        break;
      case 'count': {
        const row = counted[0];
        const delta = netChanges(moved).get(`${body.lp}:${body.article}`) ?? 0;
        if (
          counted.length !== 1 ||
          row?.counted !== body.amount ||
          delta !== (row?.counted ?? 0) - (row?.previous ?? 0)
        )
          violations.push(`${label} acknowledged, count rows ${counted.length}, journal delta ${delta}`);
        break;
      }
      case 'wmsReturn':
        if (returned.length !== 1 || returned[0]?.amount !== body.amount || sum !== body.amount)
          violations.push(
            `${label} acknowledged, returns ${returned.length}, journal ${sum} of ${body.amount}`,
          );
        break;
    }
  }

  return {
    violations,
    figures: {
      stockRows: after.stock.size,
      journalRowsOfRun: ofRun.length,
      articlesChecked: actual.size,
      keysChecked: actions.length,
    },
  };
}
