import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';

/** Counts, and a digest of the users (a role, a password or a card changed in place). */
export type WriteCounts = Record<string, number | string>;

/**
 * Everything a request could have written, to compare before and after requests that must write nothing: the
 * books (journal, stock, counts), every capture, the packing station's scans and cartons, open customs carts,
 * idempotency keys, the Leitstand's writes (Klärfälle closed, minimums, users, tokens, printers, imported
 * articles and locations, the audit list), receipts and what they received and, where asked, logins.
 *
 * `keys: 'applied'` counts only the keys of writes that went through (200): a request refused by a rule stores
 * its refusal under its key (decision 2) and must still count as writing nothing (the fuzz test's hostile
 * requests). `'all'` counts every key: a request refused by its schema stores none. `logins`: sessions and
 * failed-login counters too — not where a failed login is an expected outcome (fuzz). The audit list counts
 * what was done, not the refusals it journals by design (issue 39: a refused role, outcome 'refused').
 */
export async function countWrites(
  db: Kysely<Database>,
  options: { keys: 'all' | 'applied'; logins: boolean },
): Promise<WriteCounts> {
  const keys =
    options.keys === 'applied'
      ? sql`(select count(*) from idempotency where status_code = 200)::int as applied_keys`
      : sql`(select count(*) from idempotency)::int as keys`;
  const logins = options.logins
    ? sql`(select count(*) from sessions where revoked_at is null)::int as sessions,
      (select count(*) from attempt_counters)::int as attempts,
      (select count(*) from failed_logins)::int as failed_logins,`
    : sql``;
  const { rows } = await sql<WriteCounts>`select
    ${keys},
    ${logins}
    (select count(*) from movements)::int as movements,
    (select coalesce(sum(amount), 0) from stock)::int as stock,
    (select count(*) from stock)::int as stock_rows,
    (select count(*) from inventory_counts)::int as counts,
    (select count(*) from parcel_scans)::int as parcels,
    (select count(*) from customs_parcels)::int as customs,
    (select count(*) from batch_events)::int as batches,
    (select count(*) from container_events)::int as containers,
    (select count(*) from transporter_events)::int as transporters,
    (select count(*) from wms_returns)::int as wms,
    (select count(*) from carton_usage)::int as cartons,
    (select coalesce(sum(pemenge), 0) from delivery_note_lines)::int as scanned,
    (select count(*) from delivery_note_events)::int as events,
    (select count(*) from carts where status = 'offen')::int as open_carts,
    (select count(*) from articles)::int as articles,
    (select count(*) from locations)::int as locations,
    (select count(*) from klaerfaelle where outcome is null)::int as open_klaerfaelle,
    (select count(*) from replenishment_minimums)::int as minimums,
    (select coalesce(sum(minimum), 0) from replenishment_minimums)::int as minimum_sum,
    (select count(*) from integration_tokens where revoked_at is null)::int as live_tokens,
    (select count(*) from audit_log where detail->>'outcome' is distinct from 'refused')::int as audit,
    (select md5(string_agg(concat_ws('|', id, username, name, role, active, password_hash, card_secret_hash),
      ',' order by id)) from users) as users,
    (select count(*) from printers)::int as printers,
    (select count(*) from receipts)::int as receipts,
    (select coalesce(sum(received), 0) from receipt_lines)::int as received`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('the snapshot query answered no row');
  return row;
}
