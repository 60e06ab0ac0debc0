// Over 400 lines on purpose: one picking flow (claim, take, shortage, release, finish) whose steps share the
// claim check, the lock order below and the note's state; apart, each would have to restate them.
import { type Kysely, sql } from 'kysely';
import type { DeliveryNoteId, DeliveryNoteLineId, LocationId } from '../../../contract/ids.ts';
import {
  type Auftrag,
  type PickLine,
  kommissionierungTexts as T,
} from '../../../contract/kommissionierung.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database, DeliveryNoteStatus } from '../../db/schema.ts';
import { conflict, DomainError, invalid, notFound } from '../../domain/errors.ts';
import { lockStockRows, takeOut } from '../../domain/stock.ts';
import { locationById, markForCount } from '../../repositories/location.repository.ts';
import { claimedByNoOtherThan, pickableNote } from './pickable.ts';

type Db = Kysely<Database>;

/**
 * Kommissionierung (issue 22, decision 25). Every call runs in the route's exactly-once transaction, so a
 * refusal leaves nothing behind — not even the claim it touched.
 *
 * Locks, always in this order: the note's claim (`pick_claims`, by the upsert), the note's line, the stock
 * rows of its article on the location (domain/stock.ts), then the note row — the packing station's item scan
 * locks lines before the note too. A Leitstand 'Zurück' locks the note before its lines; should the two
 * ever cross, PostgreSQL picks one as the deadlock victim and the idempotency wrapper runs it again.
 */

/** Who calls, and the time the claim rules read (the app's clock; tests move it). */
export interface Picker {
  userId: number;
  sessionId: number;
  now: Date;
  /** PICK_CLAIM_MINUTES: a claim unused this long is free. */
  claimMinutes: number;
}

interface Note {
  id: number;
  belegnr: string;
  status: DeliveryNoteStatus;
  picked_at: Date | null;
}

const noteColumns = ['id', 'belegnr', 'status', 'picked_at'] as const;

async function noteById(db: Db, id: DeliveryNoteId): Promise<Note> {
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
async function refuseUnlessPickable(db: Db, note: Note): Promise<void> {
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

const cutoff = (picker: Picker) =>
  new Date(picker.now.getTime() - picker.claimMinutes * 60_000).toISOString();

/**
 * Claims the note for the caller in one statement: a new claim, the caller's own again, or one whose holder
 * went quiet for PICK_CLAIM_MINUTES or logged out. Two pickers at once: the primary key lets one insert, the
 * other's upsert waits for it and then finds the row taken. Refused with the holder's name.
 *
 * The caller's own claim from another of their logins (the same account on a second handheld) is taken over
 * only by scanning the note (`takeOver`, pickClaim and pickNext); a pick or Fehlmenge from the handheld that
 * lost it is refused (issue 36) — its plan is stale, and a worker who picked up the other device expects
 * the one in the pocket to stop, not to book the same stop twice.
 */
async function claim(db: Db, picker: Picker, note: Note, takeOver: boolean): Promise<boolean> {
  const now = picker.now.toISOString();
  const { rows } = await sql<{ user_id: number }>`
    insert into pick_claims as c (delivery_note_id, user_id, session_id, claimed_at, seen_at)
    values (${note.id}, ${picker.userId}, ${picker.sessionId}, ${now}::timestamptz, ${now}::timestamptz)
    on conflict (delivery_note_id) do update
      set user_id = excluded.user_id, session_id = excluded.session_id, seen_at = excluded.seen_at,
          claimed_at = case when c.user_id = excluded.user_id then c.claimed_at else excluded.claimed_at end
      where (c.user_id = excluded.user_id and (${takeOver} or c.session_id = excluded.session_id))
         or c.seen_at < ${cutoff(picker)}::timestamptz
         or exists (select 1 from sessions s where s.id = c.session_id and s.revoked_at is not null)
    returning c.user_id`.execute(db);
  return rows.length === 1;
}

/**
 * Claims or refuses. A booking call (`takeOver` false) refused because its note went elsewhere says so in the
 * answer (`abgegeben`: the note's belegnr), so the screen lets go of the note instead of showing its stale plan.
 */
async function claimOrRefuse(db: Db, picker: Picker, note: Note, takeOver: boolean): Promise<void> {
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

/** The scanned note, claimed for the caller. */
export async function pickClaim(
  db: Db,
  picker: Picker,
  belegnr: string,
): Promise<{ success: true; data: Auftrag }> {
  const note = await db
    .selectFrom('delivery_notes')
    .select(noteColumns)
    .where('belegnr', '=', belegnr)
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(belegnr));
  await refuseUnlessPickable(db, note);
  const data = await auftrag(db, note);
  if (data.positionen.length === 0) throw invalid(texts.paketinhalt.noContent);
  await claimOrRefuse(db, picker, note, true);
  return { success: true, data };
}

/**
 * 'Nächster Auftrag': the oldest pickable note with something left to pick that nobody else is picking
 * (the caller's own claim counts as theirs to go on with). Another picker may claim the same note in the
 * moment between; then the next one is tried. The notes not yet picked are read oldest first from their
 * partial index (migration 2026-11-27-01) until one qualifies: checking every note's lines first took the
 * embedded database 2–3.5 s on the large warehouse, every handheld waiting.
 */
export async function pickNext(db: Db, picker: Picker): Promise<{ success: true; data: Auftrag }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { rows } = await sql<Note>`
      select n.id, n.belegnr, n.status, n.picked_at from delivery_notes n
      where ${pickableNote} and ${claimedByNoOtherThan(picker.userId, cutoff(picker))}
      order by n.created_at, n.id
      limit 1`.execute(db);
    const note = rows[0];
    if (!note) break;
    if (await claim(db, picker, note, true)) return { success: true, data: await auftrag(db, note) };
  }
  throw notFound(T.noOpenNote);
}

/** The caller's open line of this note, locked; refused when it is not the note's or has nothing open. */
async function openLine(db: Db, note: Note, lineId: DeliveryNoteLineId) {
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

/**
 * One pick: `amount` of the line's article leaves the location (oldest MHD first, as every booking takes it),
 * journalled as 'kommissionierung' with the user and the request key; never more than is open on the line,
 * never more than lies there (the stock rows are locked, so a booking at the same moment waits).
 */
export async function pickTake(
  db: Db,
  picker: Picker,
  input: {
    deliveryNoteId: DeliveryNoteId;
    lineId: DeliveryNoteLineId;
    locationId: LocationId;
    amount: number;
    requestKey: string | null;
  },
): Promise<{ success: true; data: Auftrag }> {
  const note = await noteById(db, input.deliveryNoteId);
  await refuseUnlessPickable(db, note);
  await claimOrRefuse(db, picker, note, false);
  const line = await openLine(db, note, input.lineId);
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
  });
  await db
    .updateTable('delivery_note_lines')
    .set({ kommissioniert: sql`kommissioniert + ${input.amount}` })
    .where('id', '=', line.id)
    .execute();
  return { success: true, data: await finishIfDone(db, picker, note) };
}

/**
 * 'Fehlmenge': `amount` of the line is not there. The line is short by it, and the note becomes a Klärfall for
 * the shift lead (decision 20) — one per note: the first Fehlmenge opens it, later ones add their line. The
 * picker goes on with the rest; the packing station refuses the note until the lead has decided.
 */
export async function pickShortage(
  db: Db,
  picker: Picker,
  input: {
    deliveryNoteId: DeliveryNoteId;
    lineId: DeliveryNoteLineId;
    amount: number;
    locationId?: LocationId | undefined;
  },
): Promise<{ success: true; data: Auftrag }> {
  const unlocked = await noteById(db, input.deliveryNoteId);
  await refuseUnlessPickable(db, unlocked);
  await claimOrRefuse(db, picker, unlocked, false);
  const line = await openLine(db, unlocked, input.lineId);
  if (input.amount > line.offen) throw invalid(T.tooMany(line.nummer, line.offen));
  // Locked, and asked again: a packer may have reported the note meanwhile.
  const note = await db
    .selectFrom('delivery_notes')
    .select(noteColumns)
    .where('id', '=', input.deliveryNoteId)
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
  const place = await shortLocation(db, note, line, input.locationId);
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
  return { success: true, data: await finishIfDone(db, picker, note) };
}

/**
 * Where a Fehlmenge was found (issue 36): the location the picker names, else the one the plan leads to (read
 * before the line is short: the plan as the picker saw it). Its book stock of the article is read, and the location
 * is marked for a count — it showed stock that was not there, so the plan offers it no more until counted.
 * Null when the plan had no location (no stock anywhere).
 */
async function shortLocation(
  db: Db,
  note: Note,
  line: { id: number; article_id: number },
  named: LocationId | undefined,
): Promise<{ id: number; bestand: number } | null> {
  let locationId = named;
  if (locationId === undefined) {
    const plan = await auftrag(db, note);
    // The plan's location is one the pick plan read from the locations it joined.
    locationId = plan.positionen.find((p) => p.id === line.id)?.lagerplatz?.id as LocationId | undefined;
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
 * 'Abbrechen': the caller lets go of the note (if this login holds it — not when the same account took it
 * over on another handheld meanwhile); what was picked stays picked. A note another worker is picking is
 * refused with their name (409): it released nothing, and answering success said otherwise (issue 39). A
 * claim that ran out or whose login ended is nobody's: letting go of it is no refusal.
 */
export async function pickRelease(
  db: Db,
  picker: Picker,
  deliveryNoteId: DeliveryNoteId,
): Promise<{ success: true }> {
  const note = await noteById(db, deliveryNoteId);
  const released = await db
    .deleteFrom('pick_claims')
    .where('delivery_note_id', '=', deliveryNoteId)
    .where('user_id', '=', picker.userId)
    .where('session_id', '=', picker.sessionId)
    .returning('delivery_note_id')
    .executeTakeFirst();
  if (released) return { success: true };
  const holder = await db
    .selectFrom('pick_claims as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select('u.name')
    .where('c.delivery_note_id', '=', deliveryNoteId)
    .where('c.user_id', '<>', picker.userId)
    .where('c.seen_at', '>=', new Date(cutoff(picker)))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sessions as s')
            .select('s.id')
            .whereRef('s.id', '=', 'c.session_id')
            .where('s.revoked_at', 'is not', null),
        ),
      ),
    )
    .executeTakeFirst();
  if (holder) throw conflict(T.releaseNotYours(note.belegnr, holder.name));
  return { success: true };
}

/**
 * After a pick or a Fehlmenge: when every line is picked or reported missing, the note is picked (time and
 * picker, shown at the packing station) and its claim ends.
 */
async function finishIfDone(db: Db, picker: Picker, note: Note): Promise<Auftrag> {
  const { rows } = await sql<{ id: number }>`
    update delivery_notes set picked_at = ${picker.now.toISOString()}::timestamptz,
      picked_by = ${picker.userId}
    where id = ${note.id} and picked_at is null
      and not exists (select 1 from delivery_note_lines
        where delivery_note_id = ${note.id} and kommissioniert + fehlmenge < lsmenge)
    returning id`.execute(db);
  if (rows.length > 0) await db.deleteFrom('pick_claims').where('delivery_note_id', '=', note.id).execute();
  return auftrag(db, note);
}

/**
 * The note as its picker sees it. Each open line gets the location to pick it from: the first in walking
 * order (location code: aisle, rack, level, place) holding all that is open, else the one holding most, else
 * none. Locations marked for a count are left out — a picker found their book stock wrong (issue 36) — except
 * for a line reported short while it is being picked: its picker said the rest is there. Open lines come in walking order, those without a location after them, done lines last.
 */
async function auftrag(db: Db, note: { id: number; belegnr: string }): Promise<Auftrag> {
  const lines = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select([
      'l.id',
      'a.id as artikelId',
      'a.nummer',
      'a.name',
      'a.ean',
      'a.herstellernummer',
      'l.lsmenge',
      'l.kommissioniert',
      'l.fehlmenge',
    ])
    .where('l.delivery_note_id', '=', note.id)
    .orderBy('l.id')
    .execute();
  const open = lines.filter((l) => l.kommissioniert + l.fehlmenge < l.lsmenge);
  const articleIds = [...new Set(open.map((l) => l.artikelId))];
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
  const positionen: PickLine[] = lines.map((l) => {
    const offen = l.lsmenge - l.kommissioniert - l.fehlmenge;
    // A marked location only for a line its picker reported short and goes on with (the rest is there).
    const places =
      offen === 0 ? [] : stock.filter((s) => s.article_id === l.artikelId && (!s.marked || l.fehlmenge > 0));
    const place =
      places.find((s) => s.bestand >= offen) ??
      places.reduce<(typeof places)[number] | undefined>(
        (most, s) => (most && most.bestand >= s.bestand ? most : s),
        undefined,
      );
    return {
      ...l,
      offen,
      lagerplatz: place ? { id: place.id, code: place.code, bestand: place.bestand } : null,
    };
  });
  const rank = (p: PickLine) => (p.offen === 0 ? 2 : p.lagerplatz ? 0 : 1);
  positionen.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.lagerplatz && b.lagerplatz ? byCode(a.lagerplatz.code, b.lagerplatz.code) : 0) ||
      a.id - b.id,
  );
  return {
    id: note.id,
    belegnr: note.belegnr,
    fertig: lines.length > 0 && open.length === 0,
    positionen,
  };
}

/** Walking order: location codes compared character by character (A-01-01-01 < A-01-01-02 < A-02-… < B-…). */
function byCode(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
