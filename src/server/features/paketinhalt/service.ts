import { type Kysely, sql } from 'kysely';
import { eanVariants } from '../../../contract/ean.ts';
import type { DeliveryNoteId } from '../../../contract/ids.ts';
import { CONFIRM_WHOLE_LINE_ABOVE } from '../../../contract/limits.ts';
import type { PackageContentRow } from '../../../contract/paketinhalt.ts';
import { texts } from '../../../contract/texts.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, forbidden, limitReached, notFound, WrongSecret } from '../../domain/errors.ts';
import { refuseUnlessPackable } from '../../domain/klaerfall.ts';
import { bookOutUnpicked } from '../../domain/unpicked.ts';
import {
  deliveryNoteById,
  deliveryNoteWithPickerByBelegnr,
} from '../../repositories/delivery-note.repository.ts';

type Db = Kysely<Database>;

/** PACK_UNPICKED: what the packing station does with a note not picked completely (issue 36). */
type PackUnpicked = 'book' | 'refuse';

/**
 * With PACK_UNPICKED=refuse, a note is packed only once it was picked completely (its last line picked or
 * reported missing — and a Fehlmenge sent back by the shift lead makes it not picked again).
 */
function refuseUnlessPicked(packUnpicked: PackUnpicked, note: { belegnr: string; picked_at: unknown }): void {
  if (packUnpicked === 'refuse' && note.picked_at == null)
    throw conflict(texts.paketinhalt.notPickedRefused(note.belegnr));
}

export async function positionen(db: Db, deliveryNoteId: DeliveryNoteId): Promise<PackageContentRow[]> {
  return db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select([
      'l.id',
      'a.id as artikel_id',
      'a.nummer',
      'a.herstellernummer',
      'a.name as name_de',
      'a.ean',
      'l.lsmenge',
      'l.pemenge',
      'l.kommissioniert',
    ])
    .where('l.delivery_note_id', '=', deliveryNoteId)
    .orderBy('l.id')
    .execute();
}

/**
 * The delivery note with its lines, as the packing station shows it; refused while it is a Klärfall, and
 * with PACK_UNPICKED=refuse until it is picked.
 */
export async function packageContent(db: Db, belegnr: string, packUnpicked: PackUnpicked = 'book') {
  const inCompartment = await belegnrInCompartment(db, belegnr);
  const note = await deliveryNoteWithPickerByBelegnr(db, inCompartment ?? belegnr);
  await refuseUnlessPackable(db, note);
  refuseUnlessPicked(packUnpicked, note);
  return {
    id: note.id,
    belegnr: note.belegnr,
    eu: note.eu ? 1 : 0,
    versandart: note.versandart,
    gravurArtikel: note.gravur,
    paketinhalt: await positionen(db, note.id),
    kommissioniert:
      note.picked_at != null && note.picker_name != null
        ? { von: note.picker_name, am: new Date(note.picked_at).toISOString() }
        : null,
  };
}

/**
 * The note lying in the compartment of a pick cart with this code (decision 33: a cart's notes stay in their
 * compartments until packed, and the packer scans the compartment instead of the note), or null: the code is
 * no compartment's (a belegnr, as scanned before carts), or the compartment holds no note.
 */
async function belegnrInCompartment(db: Db, code: string): Promise<string | null> {
  const row = await db
    .selectFrom('pick_cart_compartments as f')
    .innerJoin('pick_trip_notes as tn', 'tn.compartment_id', 'f.id')
    .innerJoin('delivery_notes as n', 'n.id', 'tn.delivery_note_id')
    .select('n.belegnr')
    .where('f.code', '=', code)
    .where('tn.freed_at', 'is', null)
    .executeTakeFirst();
  return row?.belegnr ?? null;
}

/** The scanned text matches a line by nummer, herstellernummer or EAN (with or without one leading 0). */
function matches(scanned: string) {
  const eans = eanVariants(scanned);
  const byEan = eans.length > 0 ? sql` or a.ean in (${sql.join(eans)})` : sql``;
  return sql<boolean>`(a.nummer = ${scanned} or a.herstellernummer = ${scanned}${byEan})`;
}

/**
 * One item scan at the packing station. The line is locked, so two packers scanning the same note at once
 * are counted one after the other and the scanned amount never passes the delivery amount.
 *
 * A scan that matches no line is answered in this one call, whatever it is (decision 12): the configured
 * cheat code completes the note as `packageContentCheat` does; another delivery note's number is a 404 that names
 * that note (`lieferschein`), so the screen can offer to switch; this note's own number is a 404 asking for
 * an article; anything else SPEC's 404.
 */
export async function scanPackageItem(
  db: Db,
  cheatCode: string | null,
  input: {
    deliveryNoteId: DeliveryNoteId;
    itemNr: string;
    userId: number;
    mayCheat: boolean;
    packUnpicked?: PackUnpicked;
    requestKey?: string | null;
  },
) {
  const note = await deliveryNoteById(db, input.deliveryNoteId);
  await refuseUnlessPackable(db, note);
  refuseUnlessPicked(input.packUnpicked ?? 'book', note);
  const lines = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select(['l.id', 'l.lsmenge', 'l.pemenge', 'l.kommissioniert', 'l.fehlmenge', 'l.article_id', 'a.nummer'])
    .where('l.delivery_note_id', '=', note.id)
    .where(matches(input.itemNr))
    .orderBy('l.id')
    .forUpdate('l')
    .execute();
  if (lines.length === 0) {
    if (isCheatCode(cheatCode, input.itemNr)) {
      if (!input.mayCheat) throw forbidden(texts.paketinhalt.cheatNeedsLead);
      return alleVollstaendig(db, note.id, input.userId, input.requestKey ?? null);
    }
    throw await keinePosition(db, note, input.itemNr, cheatCode !== null);
  }
  const open = lines.find((l) => l.pemenge < l.lsmenge);
  if (!open) throw limitReached(texts.paketinhalt.maxReached(lines[0]?.nummer ?? input.itemNr));
  const next = open.lsmenge > CONFIRM_WHOLE_LINE_ABOVE ? open.lsmenge : open.pemenge + 1;
  await bookOutBeyondPicked(db, note.id, { ...open, pemenge: next }, input.userId, input.requestKey ?? null);
  await db.updateTable('delivery_note_lines').set({ pemenge: next }).where('id', '=', open.id).execute();
  await markPackedWhenComplete(db, note.id);
  return { success: true as const, data: { paketinhalt: await positionen(db, note.id) } };
}

/**
 * PACK_UNPICKED=book (issue 36): what the line now holds in the parcel beyond what left its location for it
 * (picked, or booked out by an earlier scan) is booked out of stock — as far as the books hold it — and
 * counts as gone from the location. A note picked completely books nothing here. (With 'refuse', only picked
 * notes get this far.)
 */
async function bookOutBeyondPicked(
  db: Db,
  deliveryNoteId: DeliveryNoteId,
  line: {
    id: number;
    article_id: number;
    lsmenge: number;
    pemenge: number;
    kommissioniert: number;
    fehlmenge: number;
  },
  userId: number,
  requestKey: string | null,
) {
  const wanted = Math.min(line.pemenge, line.lsmenge - line.fehlmenge) - line.kommissioniert;
  if (wanted <= 0) return;
  const booked = await bookOutUnpicked(db, {
    deliveryNoteId,
    articleId: line.article_id,
    amount: wanted,
    userId,
    requestKey,
  });
  if (booked === 0) return;
  await db
    .updateTable('delivery_note_lines')
    .set({ kommissioniert: sql`kommissioniert + ${booked}` })
    .where('id', '=', line.id)
    .execute();
}

/**
 * The note is packed once every line is scanned complete; the compartment of a pick cart it lay in is free
 * again in the same transaction (decision 33: `freed_reason 'gepackt'`), for the cart's next trip.
 */
async function markPackedWhenComplete(db: Db, noteId: DeliveryNoteId) {
  const { rows } = await sql<{ id: number }>`update delivery_notes set status = 'gepackt'
    where id = ${noteId} and status = 'offen'
      and not exists (select 1 from delivery_note_lines where delivery_note_id = ${noteId} and pemenge < lsmenge)
    returning id`.execute(db);
  if (rows.length === 0) return;
  await db
    .updateTable('pick_trip_notes')
    .set({ freed_at: sql`now()`, freed_reason: 'gepackt' })
    .where('delivery_note_id', '=', noteId)
    .where('freed_at', 'is', null)
    .execute();
}

/**
 * The refusal of a scan that matches no line of the note: what the scanned text is instead, if we know.
 * Anything else also told the packer "not the cheat code", if one is set: a `WrongSecret`, counted (decision 14).
 */
async function keinePosition(
  db: Db,
  note: { id: number; belegnr: string },
  scanned: string,
  comparedWithCheatCode: boolean,
) {
  // A compartment's code names the note lying in it (decision 33).
  const belegnr = (await belegnrInCompartment(db, scanned)) ?? scanned;
  if (belegnr === note.belegnr) return notFound(texts.paketinhalt.ownNoteScanned);
  const other = await db
    .selectFrom('delivery_notes')
    .select('belegnr')
    .where('belegnr', '=', belegnr)
    .executeTakeFirst();
  if (other)
    return notFound(texts.paketinhalt.otherNoteScanned(other.belegnr), { lieferschein: other.belegnr });
  const message = texts.paketinhalt.itemNotInNote(scanned);
  return comparedWithCheatCode ? new WrongSecret('notFound', message) : notFound(message);
}

/** Whether a scan is the configured cheat code (CHEAT_CODE; unset: nothing is). */
function isCheatCode(cheatCode: string | null, scanned: string): boolean {
  return cheatCode !== null && cheatCode !== '' && scanned.trim() === cheatCode;
}

/**
 * Every line of the note completely scanned, journalled with the user; answers the lines. What was not picked
 * is booked out of stock as if each piece had been scanned (PACK_UNPICKED=book).
 */
async function alleVollstaendig(db: Db, noteId: DeliveryNoteId, userId: number, requestKey: string | null) {
  const lines = await db
    .selectFrom('delivery_note_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .select(['l.id', 'l.lsmenge', 'l.kommissioniert', 'l.fehlmenge', 'l.article_id', 'a.nummer'])
    .where('l.delivery_note_id', '=', noteId)
    .orderBy('l.id')
    .forUpdate('l')
    .execute();
  for (const line of lines)
    await bookOutBeyondPicked(db, noteId, { ...line, pemenge: line.lsmenge }, userId, requestKey);
  await db
    .updateTable('delivery_note_lines')
    .set({ pemenge: sql`lsmenge` })
    .where('delivery_note_id', '=', noteId)
    .execute();
  await markPackedWhenComplete(db, noteId);
  await db
    .insertInto('delivery_note_events')
    .values({ delivery_note_id: noteId, kind: 'abkuerzung', user_id: userId })
    .execute();
  return { success: true as const, data: { paketinhalt: await positionen(db, noteId) } };
}

/**
 * The cheat call of SPEC §7: the configured code completes every line at once; journalled with the user.
 * The item scan recognises the code too (scanPackageItem), so the screen needs no second call.
 */
export async function packageContentCheat(
  db: Db,
  cheatCode: string | null,
  input: {
    deliveryNoteId: DeliveryNoteId;
    code: string;
    userId: number;
    packUnpicked?: PackUnpicked;
    requestKey?: string | null;
  },
) {
  if (!isCheatCode(cheatCode, input.code)) throw new WrongSecret('forbidden', texts.paketinhalt.cheatRefused);
  const note = await deliveryNoteById(db, input.deliveryNoteId);
  await refuseUnlessPackable(db, note);
  refuseUnlessPicked(input.packUnpicked ?? 'book', note);
  return alleVollstaendig(db, note.id, input.userId, input.requestKey ?? null);
}

/**
 * The note goes to the inquiry desk instead of shipping: one Klärfall with the packer and the lines as they
 * are now, for the shift lead to close in the Leitstand (decision 20). Until then the note cannot be packed
 * or reported again. The note is locked first, so two reports at once make one Klärfall.
 */
export async function klaerfall(db: Db, input: { deliveryNoteId: DeliveryNoteId; userId: number }) {
  const note = await db
    .selectFrom('delivery_notes')
    .select(['id', 'status'])
    .where('id', '=', input.deliveryNoteId)
    .forUpdate()
    .executeTakeFirst();
  if (!note) throw notFound(texts.paketinhalt.deliveryNoteNotFound(String(input.deliveryNoteId)));
  await refuseUnlessPackable(db, note);
  await db
    .updateTable('delivery_notes')
    .set({ status: 'klaerfall', klaerfall_at: sql`now()` })
    .where('id', '=', note.id)
    .execute();
  const { id: klaerfallId } = await db
    .insertInto('klaerfaelle')
    .values({ delivery_note_id: note.id, reported_by: input.userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into klaerfall_lines (klaerfall_id, article_id, lsmenge, pemenge)
    select ${klaerfallId}, article_id, lsmenge, pemenge from delivery_note_lines
    where delivery_note_id = ${note.id} order by id`.execute(db);
  await db
    .insertInto('delivery_note_events')
    .values({ delivery_note_id: note.id, kind: 'klaerfall', user_id: input.userId })
    .execute();
  return { success: true as const };
}
