import { type Kysely, sql } from 'kysely';
import type { DeliveryNoteId, DeliveryNoteLineId, LocationId } from '../../../contract/ids.ts';
import {
  type Auftrag,
  type PickLine,
  kommissionierungTexts as T,
} from '../../../contract/kommissionierung.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, DomainError, invalid, notFound } from '../../domain/errors.ts';
import { claimedByNoOtherThan, notInWaveNorOnCart, pickableNote } from '../../domain/pickable.ts';
import {
  byCode,
  cartHolder,
  claim,
  claimCutoff,
  claimedLine,
  claimOrRefuse,
  markPickedIfDone,
  noteById,
  noteColumns,
  type Picker,
  type PickNote,
  pickPlaces,
  refuseUnlessPickable,
  reportShortage,
  takeForLine,
} from '../../domain/picking.ts';

type Db = Kysely<Database>;

/**
 * Kommissionierung (issue 22, decision 25): one note at a time. Every call runs in the route's exactly-once
 * transaction, so a refusal leaves nothing behind — not even the claim it touched. The rules it shares with
 * the cart (features/kommissionierwagen, decision 33) — the claim, a pick, a Fehlmenge, where a line is
 * picked from, and their lock order — are domain/picking.ts's.
 */

export type { Picker };

/**
 * A note a cart holds (decision 33) is picked on that cart: scanning it here, or a pick or Fehlmenge from a
 * screen that had it open before, is refused with the cart's picker — a booking call with `abgegeben`, so
 * the screen lets go of the note.
 */
async function refuseIfOnCart(db: Db, note: PickNote, booking: boolean): Promise<void> {
  const holder = await cartHolder(db, note.id);
  if (!holder) return;
  const message = T.claimedBy(holder.name);
  throw booking ? new DomainError('conflict', message, { abgegeben: note.belegnr }) : conflict(message);
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
  await refuseIfOnCart(db, note, false);
  await claimOrRefuse(db, picker, note, true);
  return { success: true, data };
}

/**
 * 'Nächster Auftrag': the oldest pickable note with something left to pick that nobody else is picking
 * (the caller's own claim counts as theirs to go on with) — not one of a wave the shift lead released, nor
 * one lying on a cart: those are picked on carts (decision 33). Another picker may claim the same note in
 * the moment between; then the next one is tried. The notes not yet picked are read oldest first from their
 * partial index (migration 2026-11-27-01) until one qualifies: checking every note's lines first took the
 * embedded database 2–3.5 s on the large warehouse, every handheld waiting.
 */
export async function pickNext(db: Db, picker: Picker): Promise<{ success: true; data: Auftrag }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { rows } = await sql<PickNote>`
      select n.id, n.belegnr, n.status, n.picked_at from delivery_notes n
      where ${pickableNote} and ${notInWaveNorOnCart}
        and ${claimedByNoOtherThan(picker.userId, claimCutoff(picker))}
      order by n.created_at, n.id
      limit 1`.execute(db);
    const note = rows[0];
    if (!note) break;
    if (await claim(db, picker, note, true)) return { success: true, data: await auftrag(db, note) };
  }
  throw notFound(T.noOpenNote);
}

/**
 * One pick: `amount` of the line's article leaves the location (domain/picking.ts `takeForLine`: oldest MHD
 * first, journalled as 'kommissionierung' with the user and the request key; never more than is open on the
 * line, never more than lies there).
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
  await refuseIfOnCart(db, note, true);
  const line = await claimedLine(db, picker, note, input.lineId);
  await takeForLine(db, picker, note, line, input);
  return { success: true, data: await finishIfDone(db, picker, note) };
}

/**
 * 'Fehlmenge': `amount` of the line is not there. The line is short by it, and the note becomes a Klärfall for
 * the shift lead (decision 20; domain/picking.ts `reportShortage`). The picker goes on with the rest; the
 * packing station refuses the note until the lead has decided.
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
  const note = await noteById(db, input.deliveryNoteId);
  await refuseUnlessPickable(db, note);
  await refuseIfOnCart(db, note, true);
  const line = await claimedLine(db, picker, note, input.lineId);
  await reportShortage(db, picker, note.id, line, input);
  return { success: true, data: await finishIfDone(db, picker, note) };
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
    .where('c.seen_at', '>=', new Date(claimCutoff(picker)))
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
async function finishIfDone(db: Db, picker: Picker, note: PickNote): Promise<Auftrag> {
  await markPickedIfDone(db, picker, note.id);
  return auftrag(db, note);
}

/**
 * The note as its picker sees it. Each open line gets the location to pick it from (domain/picking.ts
 * `pickPlaces`: the first in walking order holding all that is open, else the one holding most, else none;
 * locations marked for a count left out but for a line reported short). Open lines come in walking order,
 * those without a location after them, done lines last.
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
  const withOpen = lines.map((l) => ({ ...l, offen: l.lsmenge - l.kommissioniert - l.fehlmenge }));
  const places = await pickPlaces(db, withOpen);
  const positionen: PickLine[] = withOpen.map((l, i) => ({ ...l, lagerplatz: places[i] ?? null }));
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
    fertig: lines.length > 0 && withOpen.every((l) => l.offen === 0),
    positionen,
  };
}
