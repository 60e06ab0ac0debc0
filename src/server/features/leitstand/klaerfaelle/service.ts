import { type Kysely, sql } from 'kysely';
import type { KlaerfallId } from '../../../../contract/ids.ts';
import {
  KLAERFAELLE_CLOSED_MAX,
  type KlaerfallRow,
  klaerfaelleTexts,
} from '../../../../contract/leitstand/klaerfaelle.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, invalid, notFound } from '../../../domain/errors.ts';
import { freeNoteFromCart } from '../../../domain/pick-trip.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';

type Db = Kysely<Database>;

/**
 * Klärfälle in the Leitstand (decision 20): the list, and closing one — 'Erledigt' (the note stays
 * unpackable) or 'Zurück ins Packen' (counters to 0, status 'offen'). A call names the Klärfall, not the
 * note: a stale page cannot close the note's next Klärfall by mistake.
 */

/** Every open Klärfall (oldest first), then those closed in the last `days` days (newest first, at most 200). */
export async function klaerfaelleList(db: Db, days: number) {
  const base = db
    .selectFrom('klaerfaelle as k')
    .innerJoin('delivery_notes as n', 'n.id', 'k.delivery_note_id')
    .leftJoin('users as reporter', 'reporter.id', 'k.reported_by')
    .leftJoin('users as resolver', 'resolver.id', 'k.resolved_by')
    .select([
      'k.id',
      'k.delivery_note_id',
      'n.belegnr',
      'reporter.name as reported_by',
      'k.reported_at',
      'k.outcome',
      'resolver.name as resolved_by',
      'k.resolved_at',
      'k.comment',
      'k.quelle',
    ]);
  const open = await base.where('k.outcome', 'is', null).orderBy('k.reported_at').orderBy('k.id').execute();
  const closed = await base
    .where('k.outcome', 'is not', null)
    .where('k.resolved_at', '>=', sql<Date>`now() - make_interval(days => ${days})`)
    .orderBy('k.resolved_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(KLAERFAELLE_CLOSED_MAX)
    .execute();
  const lines = await linesOf(
    db,
    [...open, ...closed].map((k) => k.id),
  );
  const row = (k: (typeof open)[number]): KlaerfallRow => ({
    id: k.id,
    lieferscheinId: k.delivery_note_id,
    belegnr: k.belegnr,
    gemeldetVon: k.reported_by,
    gemeldetAm: new Date(k.reported_at).toISOString(),
    quelle: k.quelle,
    positionen: lines.get(k.id) ?? [],
    abschluss:
      k.outcome && k.resolved_at
        ? {
            art: k.outcome,
            von: k.resolved_by ?? '',
            am: new Date(k.resolved_at).toISOString(),
            kommentar: k.comment,
          }
        : null,
  });
  return { offen: open.map(row), abgeschlossen: closed.map(row), tage: days };
}

/** The lines of these Klärfälle as they were reported, in the note's order. */
async function linesOf(db: Db, ids: number[]) {
  const byKlaerfall = new Map<number, KlaerfallRow['positionen']>();
  if (ids.length === 0) return byKlaerfall;
  const rows = await db
    .selectFrom('klaerfall_lines as l')
    .innerJoin('articles as a', 'a.id', 'l.article_id')
    .leftJoin('locations as p', 'p.id', 'l.location_id')
    .select(['l.klaerfall_id', 'a.nummer', 'a.name', 'l.lsmenge', 'l.pemenge', 'l.bestand', 'p.code'])
    .select(sql<boolean>`p.zaehlen_seit is not null`.as('zaehlen'))
    .where('l.klaerfall_id', 'in', ids)
    .orderBy('l.id')
    .execute();
  for (const { klaerfall_id, code, bestand, zaehlen, ...line } of rows) {
    const list = byKlaerfall.get(klaerfall_id) ?? [];
    list.push({
      ...line,
      fehlt: line.lsmenge - line.pemenge,
      ...(code === null ? {} : { lagerplatz: { code, bestand, zaehlen } }),
    });
    byKlaerfall.set(klaerfall_id, list);
  }
  return byKlaerfall;
}

/**
 * The open Klärfall with this id, locked, with its note locked first (the order the packing station's report
 * locks in, so the two never wait on each other crosswise); notFound / conflict otherwise.
 */
async function openKlaerfall(db: Db, klaerfallId: KlaerfallId) {
  const named = await db
    .selectFrom('klaerfaelle')
    .select('delivery_note_id')
    .where('id', '=', klaerfallId)
    .executeTakeFirst();
  if (!named) throw notFound(klaerfaelleTexts.notFound(klaerfallId));
  const note = await db
    .selectFrom('delivery_notes')
    .select(['id', 'belegnr'])
    .where('id', '=', named.delivery_note_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const klaerfall = await db
    .selectFrom('klaerfaelle')
    .select(['id', 'outcome'])
    .where('id', '=', klaerfallId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (klaerfall.outcome !== null) throw conflict(klaerfaelleTexts.notOpen(note.belegnr));
  return { id: klaerfall.id, noteId: note.id, belegnr: note.belegnr };
}

type Resolution = { klaerfallId: KlaerfallId; userId: number; requestKey: string | null };

/**
 * Closes the Klärfall without packing; the comment says what happened to the note. A note lying in a cart's
 * compartment leaves it (it is never packed, and only packing frees a compartment otherwise).
 */
export async function klaerfallErledigt(db: Db, input: Resolution & { kommentar: string }) {
  const kommentar = input.kommentar.trim();
  if (kommentar === '') throw invalid(klaerfaelleTexts.commentMissing);
  const klaerfall = await openKlaerfall(db, input.klaerfallId);
  await db
    .updateTable('klaerfaelle')
    .set({ outcome: 'erledigt', resolved_by: input.userId, resolved_at: sql`now()`, comment: kommentar })
    .where('id', '=', klaerfall.id)
    .execute();
  await freeNoteFromCart(db, klaerfall.noteId);
  await recordAudit(db, {
    userId: input.userId,
    action: 'klaerfall.erledigt',
    subject: klaerfall.belegnr,
    detail: { klaerfall: klaerfall.id, kommentar },
    requestKey: input.requestKey,
  });
  return { success: true as const };
}

/**
 * Sends the note back into packing: every scanned amount to 0, status 'offen'. A Fehlmenge reported while
 * picking goes back to open too (decision 25): the note is picked on from there, then packed.
 */
export async function klaerfallZurueck(db: Db, input: Resolution) {
  const klaerfall = await openKlaerfall(db, input.klaerfallId);
  await db
    .updateTable('klaerfaelle')
    .set({ outcome: 'zurueck', resolved_by: input.userId, resolved_at: sql`now()` })
    .where('id', '=', klaerfall.id)
    .execute();
  // A note picked with a Fehlmenge is not picked completely any more once its short lines are open again.
  await db
    .updateTable('delivery_notes')
    .set({
      status: 'offen',
      klaerfall_at: null,
      picked_at: sql`case when exists (select 1 from delivery_note_lines
        where delivery_note_id = ${klaerfall.noteId} and fehlmenge > 0) then null else picked_at end`,
      picked_by: sql`case when exists (select 1 from delivery_note_lines
        where delivery_note_id = ${klaerfall.noteId} and fehlmenge > 0) then null else picked_by end`,
    })
    .where('id', '=', klaerfall.noteId)
    .execute();
  await db
    .updateTable('delivery_note_lines')
    .set({ pemenge: 0, fehlmenge: 0 })
    .where('delivery_note_id', '=', klaerfall.noteId)
    .execute();
  await recordAudit(db, {
    userId: input.userId,
    action: 'klaerfall.zurueck',
    subject: klaerfall.belegnr,
    detail: { klaerfall: klaerfall.id },
    requestKey: input.requestKey,
  });
  return { success: true as const };
}
