// Over 400 lines: every picking rule one note and one cart share (claims, lines, shortages, the lock order),
// read top to bottom by whoever changes one of them; the screens' flows stay in their features.
import { type Kysely, sql } from 'kysely';
import type { DeliveryNoteId, DeliveryNoteLineId, LocationId } from '../../contract/ids.ts';
import { kommissionierungTexts as T } from '../../contract/kommissionierung.ts';
import { texts } from '../../contract/texts.ts';
import type { Database, DeliveryNoteStatus } from '../db/schema.ts';
import { locationById, markForCount } from '../repositories/location.repository.ts';
import { createShortageTask, localDate } from './count-tasks.ts';
import { conflict, DomainError, invalid, notFound } from './errors.ts';
import { lockStockRows, takeOut } from './stock.ts';

type Db = Kysely<Database>;

/**
 * Picking's rules that the single note (features/kommissionierung) and the cart (features/kommissionierwagen,
 * decision 33) share (decision 25): who may pick a note (its claim), one pick off a location, a Fehlmenge,
 * a note picked completely, and where each open line is picked from. Every function runs in the calling
 * route's exactly-once transaction.
 *
 * Locks, always in this order: the note's claim (`pick_claims`, by the upsert), the note's line, the stock
 * rows of its article on the location (domain/stock.ts), then the note row — the packing station's item scan
 * locks lines before the note too. (The cart's calls lock their trip row before all of these.)
 */

/** Who calls, and the time the claim rules read (the app's clock; tests move it). */
export interface Picker {
  userId: number;
  sessionId: number;
  now: Date;
  /** PICK_CLAIM_MINUTES: a claim unused this long is free. */
  claimMinutes: number;
  /** TIME_ZONE: a Fehlmenge's count task is due on this day there. */
  timeZone: string;
}

export interface PickNote {
  id: number;
  belegnr: string;
  status: DeliveryNoteStatus;
  picked_at: Date | null;
}

export const noteColumns = ['id', 'belegnr', 'status', 'picked_at'] as const;

export async function noteById(db: Db, id: DeliveryNoteId | number): Promise<PickNote> {
  const note = await db
    .selectFrom('delivery_notes')
    .select(noteColumns)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(String(id)));
  return note;
}

/**
 * Whether a note may be picked: not packed, not picked completely, and not a Klärfall — except one raised by a
 * Fehlmenge while picking it, as the rest of the note goes on (decision 25).
 */
export async function refuseUnlessPickable(db: Db, note: PickNote): Promise<void> {
  if (note.status === 'gepackt') throw conflict(T.alreadyPacked(note.belegnr));
  if (note.status === 'klaerfall') {
    const open = await db
      .selectFrom('klaerfaelle')
      .select('quelle')
      .where('delivery_note_id', '=', note.id)
      .where('outcome', 'is', null)
      .executeTakeFirst();
    if (!open) throw conflict(texts.paketinhalt.klaerfallClosed);
    if (open.quelle !== 'kommissionierung') throw conflict(texts.paketinhalt.klaerfallOpen);
  }
  if (note.picked_at !== null) throw conflict(T.alreadyPicked(note.belegnr));
}

/** The time before which a claim not used since is free (PICK_CLAIM_MINUTES ago). */
export const claimCutoff = (picker: Picker) =>
  new Date(picker.now.getTime() - picker.claimMinutes * 60_000).toISOString();

/**
 * Claims the note for the caller in one statement: a new claim, the caller's own again, or one whose holder
 * went quiet for PICK_CLAIM_MINUTES or logged out. Two pickers at once: the primary key lets one insert, the
 * other's upsert waits for it and then finds the row taken. Answers whether the caller holds it now.
 *
 * The caller's own claim from another of their logins (the same account on a second handheld) is taken over
 * only by scanning the note or the cart (`takeOver`); a pick or Fehlmenge from the handheld that lost it is
 * refused (issue 36) — its plan is stale, and a worker who picked up the other device expects the one in the
 * pocket to stop, not to book the same stop twice.
 */
export async function claim(
  db: Db,
  picker: Picker,
  note: { id: number },
  takeOver: boolean,
): Promise<boolean> {
  const now = picker.now.toISOString();
  const { rows } = await sql<{ user_id: number }>`
    insert into pick_claims as c (delivery_note_id, user_id, session_id, claimed_at, seen_at)
    values (${note.id}, ${picker.userId}, ${picker.sessionId}, ${now}::timestamptz, ${now}::timestamptz)
    on conflict (delivery_note_id) do update
      set user_id = excluded.user_id, session_id = excluded.session_id, seen_at = excluded.seen_at,
          claimed_at = case when c.user_id = excluded.user_id then c.claimed_at else excluded.claimed_at end
      where (c.user_id = excluded.user_id and (${takeOver} or c.session_id = excluded.session_id))
         or c.seen_at < ${claimCutoff(picker)}::timestamptz
         or exists (select 1 from sessions s where s.id = c.session_id and s.revoked_at is not null)
    returning c.user_id`.execute(db);
  return rows.length === 1;
}

/**
 * Claims or refuses. A booking call (`takeOver` false) refused because its note went elsewhere says so in the
 * answer (`abgegeben`: the note's belegnr), so the screen lets go of the note instead of showing its stale plan.
 */
export async function claimOrRefuse(
  db: Db,
  picker: Picker,
  note: PickNote,
  takeOver: boolean,
): Promise<void> {
  if (await claim(db, picker, note, takeOver)) return;
  const holder = await db
    .selectFrom('pick_claims as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['u.name', 'c.user_id'])
    .where('c.delivery_note_id', '=', note.id)
    .executeTakeFirst();
  const message =
    holder?.user_id === picker.userId ? T.otherDevice(note.belegnr) : T.claimedBy(holder?.name ?? '?');
  throw takeOver ? conflict(message) : new DomainError('conflict', message, { abgegeben: note.belegnr });
}

/**
 * The picker whose cart holds the note now: a trip not finished, whose login is still on, with the note in
 * a compartment (decision 33). Null when no cart holds it — also when the note lies in a compartment of a
 * trip that ended ('Abbrechen' keeps a started note there until it is packed): the single-note flow may go on
 * with it.
 */
export async function cartHolder(db: Db, noteId: number): Promise<{ userId: number; name: string } | null> {
  const row = await db
    .selectFrom('pick_trip_notes as tn')
    .innerJoin('pick_trips as t', 't.id', 'tn.trip_id')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['u.id as userId', 'u.name'])
    .where('tn.delivery_note_id', '=', noteId)
    .where('tn.freed_at', 'is', null)
    .where('t.finished_at', 'is', null)
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The line a booking call names (a pick, a Fehlmenge; the single note's or a cart's): the caller's claim kept
 * or refused first (`abgegeben` when the note went elsewhere), then the line locked and open — claims before
 * the line, in this file's lock order.
 */
export async function claimedLine(
  db: Db,
  picker: Picker,
  note: PickNote,
  lineId: DeliveryNoteLineId | number,
): Promise<OpenLine> {
  await claimOrRefuse(db, picker, note, false);
  return openLine(db, note, lineId);
}

/** The note's line, locked; refused when it is not the note's or has nothing open. */
export async function openLine(db: Db, note: { id: number }, lineId: DeliveryNoteLineId | number) {
  const line = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select(['l.id', 'l.article_id', 'l.lsmenge', 'l.kommissioniert', 'l.fehlmenge', 'a.nummer'])
    .where('l.id', '=', lineId)
    .where('l.delivery_note_id', '=', note.id)
    .forUpdate('l')
    .executeTakeFirst();
  if (!line) throw notFound(T.lineNotInNote);
  const offen = line.lsmenge - line.kommissioniert - line.fehlmenge;
  if (offen === 0) throw conflict(T.lineDone(line.nummer));
  return { ...line, offen };
}

export type OpenLine = Awaited<ReturnType<typeof openLine>>;

/**
 * One pick: `amount` of the line's article leaves the location (oldest MHD first, as every booking takes it),
 * journalled as 'kommissionierung' with the user, the request key and — on a cart — the compartment and the
 * trip; never more than is open on the line, never more than lies there (the stock rows are locked, so a
 * booking at the same moment waits). The line's picked amount goes up by it.
 */
export async function takeForLine(
  db: Db,
  picker: Picker,
  note: { id: number },
  line: OpenLine,
  input: {
    locationId: LocationId;
    amount: number;
    requestKey: string | null;
    compartmentId?: number;
    tripId?: number;
  },
): Promise<void> {
  if (input.amount > line.offen) throw invalid(T.tooMany(line.nummer, line.offen));
  const location = await locationById(db, input.locationId);
  const rows = await lockStockRows(db, line.article_id, [input.locationId]);
  const available = rows.reduce((sum, r) => sum + Math.max(r.amount, 0), 0);
  if (input.amount > available) throw invalid(T.notEnoughStock(location.code, available, line.nummer));
  await takeOut(db, rows, input.amount, {
    kind: 'kommissionierung',
    article_id: line.article_id,
    from_location_id: input.locationId,
    to_location_id: null,
    user_id: picker.userId,
    request_key: input.requestKey,
    delivery_note_id: note.id,
    compartment_id: input.compartmentId ?? null,
    pick_trip_id: input.tripId ?? null,
  });
  await db
    .updateTable('delivery_note_lines')
    .set({ kommissioniert: sql`kommissioniert + ${input.amount}` })
    .where('id', '=', line.id)
    .execute();
}

/**
 * 'Fehlmenge': `amount` of the line is not there. The line is short by it, and the note becomes a Klärfall for
 * the shift lead (decision 20) — one per note: the first Fehlmenge opens it, later ones add their line. The
 * picker goes on with the rest; the packing station refuses the note until the lead has decided. Where it was
 * missing: `locationId` as the picker names it, else the location the plan leads to; it is marked for a count.
 */
export async function reportShortage(
  db: Db,
  picker: Picker,
  noteId: number,
  line: OpenLine,
  input: { amount: number; locationId?: LocationId | undefined },
): Promise<void> {
  if (input.amount > line.offen) throw invalid(T.tooMany(line.nummer, line.offen));
  // Locked, and asked again: a packer may have reported the note meanwhile.
  const note = await db
    .selectFrom('delivery_notes')
    .select(noteColumns)
    .where('id', '=', noteId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  await refuseUnlessPickable(db, note);

  let klaerfallId: number;
  if (note.status === 'offen') {
    const opened = await db
      .insertInto('klaerfaelle')
      .values({ delivery_note_id: note.id, reported_by: picker.userId, quelle: 'kommissionierung' })
      .returning('id')
      .executeTakeFirstOrThrow();
    klaerfallId = opened.id;
    await db
      .updateTable('delivery_notes')
      .set({ status: 'klaerfall', klaerfall_at: sql`now()` })
      .where('id', '=', note.id)
      .execute();
    await db
      .insertInto('delivery_note_events')
      .values({ delivery_note_id: note.id, kind: 'klaerfall', user_id: picker.userId })
      .execute();
  } else {
    const open = await db
      .selectFrom('klaerfaelle')
      .select('id')
      .where('delivery_note_id', '=', note.id)
      .where('outcome', 'is', null)
      .executeTakeFirstOrThrow();
    klaerfallId = open.id;
  }
  const place = await shortLocation(db, line, input.locationId);
  if (place) await createShortageTask(db, place.id, localDate(picker.now, picker.timeZone));
  const short = line.fehlmenge + input.amount;
  await db.updateTable('delivery_note_lines').set({ fehlmenge: short }).where('id', '=', line.id).execute();
  // The shortage journal (export feed `pickshortages`): the line's sum says neither when nor who.
  await db
    .insertInto('pick_shortages')
    .values({
      delivery_note_id: note.id,
      article_id: line.article_id,
      amount: input.amount,
      user_id: picker.userId,
    })
    .execute();
  // The Klärfall's line: 'Ist' is what can be had, 'Fehlt' what is missing (the Leitstand shows lsmenge − pemenge),
  // and where it was missing with the book stock there (a later Fehlmenge where no location is left keeps it).
  const reported = await db
    .updateTable('klaerfall_lines')
    .set({
      lsmenge: line.lsmenge,
      pemenge: line.lsmenge - short,
      ...(place ? { location_id: place.id, bestand: place.bestand } : {}),
    })
    .where('klaerfall_id', '=', klaerfallId)
    .where('article_id', '=', line.article_id)
    .returning('id')
    .execute();
  if (reported.length === 0) {
    await db
      .insertInto('klaerfall_lines')
      .values({
        klaerfall_id: klaerfallId,
        article_id: line.article_id,
        lsmenge: line.lsmenge,
        pemenge: line.lsmenge - short,
        location_id: place?.id ?? null,
        bestand: place?.bestand ?? null,
      })
      .execute();
  }
}

/**
 * Where a Fehlmenge was found (issue 36): the location the picker names, else the one the plan leads to (read
 * before the line is short: the plan as the picker saw it). Its book stock of the article is read, and the location
 * is marked for a count — it showed stock that was not there, so the plan offers it no more until counted
 * (and the caller gives it a count task due today, issue 42). Null when the plan had no location.
 */
async function shortLocation(
  db: Db,
  line: OpenLine,
  named: LocationId | undefined,
): Promise<{ id: number; bestand: number } | null> {
  let locationId = named;
  if (locationId === undefined) {
    const [place] = await pickPlaces(db, [
      { id: line.id, artikelId: line.article_id, offen: line.offen, fehlmenge: line.fehlmenge },
    ]);
    // The plan's location is one the pick plan read from the locations it joined.
    locationId = place?.id as LocationId | undefined;
  }
  if (locationId === undefined) return null;
  await markForCount(db, locationId);
  const { bestand } = await db
    .selectFrom('stock')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('bestand'))
    .where('article_id', '=', line.article_id)
    .where('location_id', '=', locationId)
    .executeTakeFirstOrThrow();
  return { id: locationId, bestand };
}

/**
 * After a pick or a Fehlmenge: when every line is picked or reported missing, the note is picked (time and
 * picker, shown at the packing station) and its claim ends. Answers whether it became picked now.
 */
export async function markPickedIfDone(db: Db, picker: Picker, noteId: number): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`
    update delivery_notes set picked_at = ${picker.now.toISOString()}::timestamptz,
      picked_by = ${picker.userId}
    where id = ${noteId} and picked_at is null
      and not exists (select 1 from delivery_note_lines
        where delivery_note_id = ${noteId} and kommissioniert + fehlmenge < lsmenge)
    returning id`.execute(db);
  if (rows.length === 0) return false;
  await db.deleteFrom('pick_claims').where('delivery_note_id', '=', noteId).execute();
  return true;
}

/** A location a line is picked from, with the book stock of the line's article there. */
export interface PickPlace {
  id: number;
  code: string;
  bestand: number;
}

/**
 * Where each line is picked from (one answer per line, in their order): the first location in walking order
 * (location code: aisle, rack, level, place) holding all that is open, else the one holding most, else none
 * (null; also for a line with nothing open). Locations marked for a count are left out — a picker found
 * their book stock wrong (issue 36) — except for a line reported short while it is being picked: its picker
 * said the rest is there. One read of the stock of every article the open lines need.
 */
export async function pickPlaces(
  db: Db,
  lines: readonly { id: number; artikelId: number; offen: number; fehlmenge: number }[],
): Promise<(PickPlace | null)[]> {
  const articleIds = [...new Set(lines.filter((l) => l.offen > 0).map((l) => l.artikelId))];
  const stock =
    articleIds.length === 0
      ? []
      : await db
          .selectFrom('stock as s')
          .innerJoin('locations as p', 'p.id', 's.location_id')
          .select(['s.article_id', 'p.id', 'p.code', sql<number>`sum(s.amount)::int`.as('bestand')])
          .select(sql<boolean>`p.zaehlen_seit is not null`.as('marked'))
          .where('s.article_id', 'in', articleIds)
          .where('s.amount', '>', 0)
          .groupBy(['s.article_id', 'p.id', 'p.code', 'p.zaehlen_seit'])
          .execute();
  stock.sort((a, b) => byCode(a.code, b.code));
  return lines.map((l) => {
    // A marked location only for a line its picker reported short and goes on with (the rest is there).
    const places =
      l.offen === 0
        ? []
        : stock.filter((s) => s.article_id === l.artikelId && (!s.marked || l.fehlmenge > 0));
    const place =
      places.find((s) => s.bestand >= l.offen) ??
      places.reduce<(typeof places)[number] | undefined>(
        (most, s) => (most && most.bestand >= s.bestand ? most : s),
        undefined,
      );
    return place ? { id: place.id, code: place.code, bestand: place.bestand } : null;
  });
}

/** Walking order: location codes compared character by character (A-01-01-01 < A-01-01-02 < A-02-… < B-…). */
export function byCode(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
