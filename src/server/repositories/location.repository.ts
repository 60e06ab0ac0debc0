import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { LocationCode, LocationId } from '../../contract/ids.ts';
import { texts } from '../../contract/texts.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../domain/errors.ts';

/**
 * Locations (Lagerplätze, and LHMs: locations with `isLhm`) as every feature finds them (decision 32): a
 * reference in — the id, or the code as scanned — the location out, or the one refusal: 404 'Lagerplatz nicht
 * gefunden.' for an id, 'Lagerplatz "x" nicht gefunden!' for a code (SPEC §8). No feature reads the table
 * itself (test/structure/boundaries.test.ts).
 */
type Db = Kysely<Database>;

export interface Location {
  id: LocationId;
  code: LocationCode;
  name: string;
  lagertyp: string;
  isLhm: boolean;
  /** Marked for a count since then (issue 36): a picker found less than its book stock. */
  zaehlenSeit: Date | null;
}

const columns = ['id', 'code', 'name', 'lagertyp', 'is_lhm', 'zaehlen_seit'] as const;

function location(row: {
  id: number;
  code: string;
  name: string;
  lagertyp: string;
  is_lhm: boolean;
  zaehlen_seit: Date | null;
}): Location {
  // The one place a row's id and code become the brands (decision 32): they came from this table.
  return {
    id: row.id as LocationId,
    code: row.code as LocationCode,
    name: row.name,
    lagertyp: row.lagertyp,
    isLhm: row.is_lhm,
    zaehlenSeit: row.zaehlen_seit,
  };
}

/** The refusal for a location id that names none. */
export const unknownLocation = () => notFound(texts.lookup.unknownLocation);

/** The location with this id, or undefined (for an answer that says `found: false`). */
export async function findLocationById(db: Db, id: LocationId): Promise<Location | undefined> {
  const row = await db.selectFrom('locations').select(columns).where('id', '=', id).executeTakeFirst();
  return row && location(row);
}

/** The location with this code as scanned, or undefined (for an answer that says `found: false`). */
export async function findLocationByCode(db: Db, code: LocationCode): Promise<Location | undefined> {
  const row = await db.selectFrom('locations').select(columns).where('code', '=', code).executeTakeFirst();
  return row && location(row);
}

/** The location with this id, or 404 'Lagerplatz nicht gefunden.'. */
export async function locationById(db: Db, id: LocationId): Promise<Location> {
  const found = await findLocationById(db, id);
  if (!found) throw unknownLocation();
  return found;
}

/** The location with this code as scanned, or 404 'Lagerplatz "x" nicht gefunden!'. */
export async function locationByCode(db: Db, code: LocationCode): Promise<Location> {
  const found = await findLocationByCode(db, code);
  if (!found) throw notFound(texts.lookup.locationNotFound(code));
  return found;
}

/** The locations of these codes that exist, by code (a label run names many at once; it refuses the rest). */
export async function locationsByCodes(db: Db, codes: readonly string[]): Promise<Map<string, Location>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('locations')
    .select(columns)
    .where('code', 'in', [...codes])
    .execute();
  return new Map(rows.map((row) => [row.code, location(row)]));
}

/**
 * The code of the location with this id as a subquery (null: none), for a booking that checks all its ids
 * in the one statement it needs anyway — the floor's most frequent calls pay one round trip, not three.
 * Refuse a null with `unknownLocation()`.
 */
export function locationCodeOf(id: LocationId): RawBuilder<string | null> {
  return sql<string | null>`(select code from locations where id = ${id})`;
}

/**
 * The locations (`lhm`: the LHMs, else the others) whose code lies from `from` to `to` in byte order
 * (COLLATE "C": the same order on PGlite and PostgreSQL whatever the database's locale): a query to count
 * them or to read them a page at a time (`codeAfter`, `inCodeOrder`).
 */
export function locationsInCodeRange(db: Db, lhm: boolean, from: string, to: string) {
  return db
    .selectFrom('locations')
    .where('is_lhm', '=', lhm)
    .where(sql<boolean>`code collate "C" >= ${from} collate "C"`)
    .where(sql<boolean>`code collate "C" <= ${to} collate "C"`);
}

/** The range's rows after this code, in its byte order (for the next page of `locationsInCodeRange`). */
export const codeAfter = (after: string) => sql<boolean>`code collate "C" > ${after} collate "C"`;

/** Byte order of the codes, as `locationsInCodeRange` counts them. */
export const inCodeOrder = sql`code collate "C"`;

/**
 * Marks the location for a count (a picker found less than its book stock, issue 36): the pick plan offers it
 * no more until an Inventur count answers it. Keeps an earlier mark's time. 404 for an unknown id.
 */
export async function markForCount(db: Db, id: LocationId): Promise<void> {
  const marked = await db
    .updateTable('locations')
    .set({ zaehlen_seit: sql`coalesce(zaehlen_seit, now())` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!marked) throw unknownLocation();
}

/** An Inventur count answers a location's mark: picking offers it again. */
export async function clearCountMark(db: Db, id: LocationId): Promise<void> {
  await db
    .updateTable('locations')
    .set({ zaehlen_seit: null })
    .where('id', '=', id)
    .where('zaehlen_seit', 'is not', null)
    .execute();
}
