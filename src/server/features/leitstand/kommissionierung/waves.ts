import { type Kysely, sql } from 'kysely';
import {
  kommissionierungLeitstandTexts as T,
  WAVE_DAYS,
  WAVES_MAX,
  type WelleLieferschein,
  type WelleRow,
  type Zustand,
} from '../../../../contract/leitstand/kommissionierung.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict, notFound } from '../../../domain/errors.ts';
import type { Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import type { Change } from './profiles.ts';

type Db = Kysely<Database>;

/**
 * A wave note's state: packed; picked (every line picked or short); lying on a cart whose trip is open; or
 * open — also a note a cart let go ('Abbrechen' before anything was put in): the next cart takes it again.
 * Over the note `n` and its compartment row not freed `tn` with its trip `t` (both may be null).
 */
const stateOf = sql<Zustand>`case
  when n.status = 'gepackt' then 'gepackt'
  when n.picked_at is not null then 'kommissioniert'
  when tn.id is not null and t.finished_at is null then 'aufWagen'
  else 'offen' end`;

const shortOf = sql<boolean>`exists (
  select 1 from delivery_note_lines l where l.delivery_note_id = n.id and l.fehlmenge > 0)`;

/** One step reads at most this many of a wave's notes (PGlite: about 10 ms), so a large wave is read in pieces. */
const NOTES_PER_STEP = 300;

interface NoteRow {
  id: number;
  belegnr: string;
  versandart: string;
  zustand: Zustand;
  fehlmenge: boolean;
  fach: string | null;
  kommissionierer: string | null;
  herausnehmbar: boolean;
  positionen: string;
}

/**
 * A wave's notes in steps of NOTES_PER_STEP (by note id), each with its state, the compartment and picker it
 * lies with now, and whether it may be taken out. The Wellen page reads them at every live refresh: in steps,
 * the handhelds' calls go between the pieces (decision 31).
 */
async function notesOfWave(steps: Steps, db: Db, waveId: number): Promise<NoteRow[]> {
  const notes: NoteRow[] = [];
  let after = 0;
  for (;;) {
    const { rows } = await steps.run(() =>
      sql<NoteRow>`
        select n.id, n.belegnr, n.versandart, ${stateOf} as zustand, ${shortOf} as fehlmenge,
               c.code as fach, u.name as kommissionierer,
               (select count(*) from delivery_note_lines l where l.delivery_note_id = n.id) as positionen,
               not exists (select 1 from pick_trip_notes h
                           where h.delivery_note_id = n.id and (h.wave_id = wn.wave_id or h.freed_at is null))
                 as herausnehmbar
        from pick_wave_notes wn
        join delivery_notes n on n.id = wn.delivery_note_id
        left join pick_trip_notes tn on tn.delivery_note_id = n.id and tn.freed_at is null
        left join pick_trips t on t.id = tn.trip_id
        left join pick_cart_compartments c on c.id = tn.compartment_id
        left join users u on u.id = t.user_id
        where wn.wave_id = ${waveId}::integer and wn.delivery_note_id > ${after}::integer
        order by wn.delivery_note_id
        limit ${NOTES_PER_STEP}`.execute(db),
    );
    notes.push(...rows);
    const last = rows.at(-1);
    if (!last || rows.length < NOTES_PER_STEP) return notes;
    after = last.id;
  }
}

interface WaveHead {
  id: number;
  profile_name: string;
  notes_per_cart: number;
  released_at: Date | string;
  released_by: string;
}

/**
 * The waves with something still open or on a cart (whenever released), and those released in the last
 * WAVE_DAYS days, newest first, each counted from its notes (read in steps). The open ones are found from the
 * notes not picked (their partial index), so the list does not grow with every wave ever released.
 */
export async function waves(steps: Steps, db: Db, now: Date): Promise<WelleRow[]> {
  const since = new Date(now.getTime() - WAVE_DAYS * 86_400_000).toISOString();
  const heads = await steps.run(async () => {
    const { rows } = await sql<WaveHead>`
      select w.id, w.profile_name, w.notes_per_cart, w.released_at, u.name as released_by
      from pick_waves w
      join users u on u.id = w.released_by
      where w.released_at >= ${since}::timestamptz
         or w.id in (select wn.wave_id from delivery_notes n
                     join pick_wave_notes wn on wn.delivery_note_id = n.id
                     where n.picked_at is null and n.status in ('offen', 'klaerfall'))
      order by w.released_at desc, w.id desc
      limit ${WAVES_MAX}`.execute(db);
    return rows;
  });
  const carts = await steps.run(() =>
    cartsOfWaves(
      db,
      heads.map((w) => w.id),
    ),
  );
  const list: WelleRow[] = [];
  for (const w of heads) {
    const notes = await notesOfWave(steps, db, w.id);
    const count = (state: Zustand[]) => notes.filter((n) => state.includes(n.zustand)).length;
    list.push({
      id: w.id,
      profil: w.profile_name,
      proWagen: w.notes_per_cart,
      freigegebenVon: w.released_by,
      freigegebenAm: new Date(w.released_at).toISOString(),
      lieferscheine: notes.length,
      offen: count(['offen']),
      aufWagen: count(['aufWagen']),
      kommissioniert: count(['kommissioniert', 'gepackt']),
      fehlmenge: notes.filter((n) => n.fehlmenge).length,
      wagen: carts.get(w.id) ?? [],
    });
  }
  return list;
}

/** The carts on an open trip holding the waves' notes now, with their pickers, by cart code. */
async function cartsOfWaves(db: Db, waveIds: number[]) {
  const byWave = new Map<number, { wagen: string; kommissionierer: string }[]>();
  if (waveIds.length === 0) return byWave;
  const rows = await db
    .selectFrom('pick_trip_notes as tn')
    .innerJoin('pick_trips as t', 't.id', 'tn.trip_id')
    .innerJoin('pick_carts as pc', 'pc.id', 'tn.cart_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('pick_wave_notes as wn', 'wn.delivery_note_id', 'tn.delivery_note_id')
    .select(['wn.wave_id', 'pc.code', 'u.name'])
    .distinct()
    .where('tn.freed_at', 'is', null)
    .where('t.finished_at', 'is', null)
    .where('wn.wave_id', 'in', waveIds)
    .orderBy('pc.code')
    .execute();
  for (const r of rows) {
    const list = byWave.get(r.wave_id) ?? [];
    list.push({ wagen: r.code, kommissionierer: r.name });
    byWave.set(r.wave_id, list);
  }
  return byWave;
}

/** A wave's notes by number, each with its state, its compartment now and whether it may be taken out. */
export async function waveNotesOf(steps: Steps, db: Db, waveId: number): Promise<WelleLieferschein[]> {
  const wave = await steps.run(() =>
    db.selectFrom('pick_waves').select('id').where('id', '=', waveId).executeTakeFirst(),
  );
  if (!wave) throw notFound(T.waveNotFound);
  const notes = await notesOfWave(steps, db, waveId);
  return notes
    .sort((a, b) => (a.belegnr < b.belegnr ? -1 : a.belegnr > b.belegnr ? 1 : 0))
    .map((r) => ({
      id: r.id,
      belegnr: r.belegnr,
      versandart: r.versandart,
      positionen: Number(r.positionen),
      zustand: r.zustand,
      fehlmenge: r.fehlmenge,
      fach: r.fach,
      kommissionierer: r.zustand === 'aufWagen' ? r.kommissionierer : null,
      herausnehmbar: r.herausnehmbar,
    }));
}

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

/**
 * Takes a note out of its wave while no cart ever held it from the wave (nor holds it now). A cart's fill
 * that takes the note at the same moment: its trip note references the membership, so the delete waits for
 * it and then fails on the foreign key — answered as the same refusal.
 */
export async function takeOut(db: Db, waveId: number, deliveryNoteId: number, change: Change) {
  const member = await db
    .selectFrom('pick_wave_notes as wn')
    .innerJoin('delivery_notes as n', 'n.id', 'wn.delivery_note_id')
    .select(['n.belegnr'])
    .where('wn.wave_id', '=', waveId)
    .where('wn.delivery_note_id', '=', deliveryNoteId)
    .executeTakeFirst();
  if (!member) {
    const wave = await db.selectFrom('pick_waves').select('id').where('id', '=', waveId).executeTakeFirst();
    throw notFound(wave ? T.notInWave(waveId) : T.waveNotFound);
  }
  const onCart = conflict(T.onCartAlready(member.belegnr));
  let removed: { delivery_note_id: number } | undefined;
  try {
    removed = await db
      .deleteFrom('pick_wave_notes as wn')
      .where('wn.wave_id', '=', waveId)
      .where('wn.delivery_note_id', '=', deliveryNoteId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('pick_trip_notes as tn')
              .select('tn.id')
              .whereRef('tn.delivery_note_id', '=', 'wn.delivery_note_id')
              .where((eb) => eb.or([eb('tn.wave_id', '=', waveId), eb('tn.freed_at', 'is', null)])),
          ),
        ),
      )
      .returning('wn.delivery_note_id')
      .executeTakeFirst();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw onCart;
    throw error;
  }
  if (!removed) throw onCart;
  await recordAudit(db, {
    userId: change.userId,
    action: 'wave.takeOut',
    subject: member.belegnr,
    detail: { welle: waveId, lieferschein: member.belegnr },
    requestKey: change.requestKey,
  });
  return { success: true as const, message: T.tookOut(member.belegnr, waveId) };
}
