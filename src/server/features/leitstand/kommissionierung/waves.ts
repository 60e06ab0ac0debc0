import { type Kysely, type RawBuilder, sql } from 'kysely';
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
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
// The one rule of which notes can be picked, shared with 'Nächster Auftrag' and the cart's fill (decision 33).
import { claimedByNoOtherThan, pickableNote } from '../../kommissionierung/pickable.ts';
import { type Change, profileById } from './profiles.ts';

type Db = Kysely<Database>;

/** What a release reads besides the profile: the app's clock, the claim rule's minutes, the site's zone. */
export interface ReleaseClock {
  now: Date;
  claimMinutes: number;
  timeZone: string;
}

/** No user has this id: `claimedByNoOtherThan(NOBODY, …)` is "held by nobody at all". */
const NOBODY = 0;

type Profile = Awaited<ReturnType<typeof profileById>>;

/**
 * 'Eingegangen vor 14:00' as an instant: before 14:00 today in the site's time zone — this morning's notes and
 * every older one — so a cut-off set for the afternoon's last pickup means the same on every day it is
 * released. Null without that filter.
 */
async function arrivedBeforeInstant(db: Db, profile: Profile, clock: ReleaseClock): Promise<string | null> {
  if (profile.arrived_before === null) return null;
  const { rows } = await sql<{ instant: string }>`
    select (((${clock.now.toISOString()}::timestamptz at time zone ${clock.timeZone}::text)::date
             + ${profile.arrived_before}::time) at time zone ${clock.timeZone}::text)::text as instant`.execute(
    db,
  );
  return rows[0]?.instant ?? null;
}

/**
 * The profile's filters over the note as `n`, only those set (a null filter takes every note): a slice's
 * statement stays short enough to go as a named prepared statement (decision 6) and plans without the unset
 * ones — planning the statement with every filter as `$n is null or …` took 14 ms of a step on the large seed.
 * The Versandart is a prefix of the note's code, case aside ('DHL' takes DHL037 and DHL042).
 */
function matchesProfile(profile: Profile, arrivedBefore: string | null): RawBuilder<boolean> {
  const filters: RawBuilder<unknown>[] = [];
  if (profile.versandart !== null)
    filters.push(
      sql`upper(left(n.versandart, length(${profile.versandart}::text))) = upper(${profile.versandart}::text)`,
    );
  if (profile.max_lines !== null)
    filters.push(
      sql`(select count(*) from delivery_note_lines l where l.delivery_note_id = n.id) <= ${profile.max_lines}::integer`,
    );
  if (profile.eu !== null) filters.push(sql`n.eu = ${profile.eu}::boolean`);
  if (arrivedBefore !== null) filters.push(sql`n.created_at < ${arrivedBefore}::timestamptz`);
  return filters.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(filters, sql` and `)})`;
}

/** The most candidate notes one step of a release reads (StepSize follows the measured time below it). */
export const RELEASE_STEP_MAX = 2_000;

/**
 * A release's steps: at first 20 candidates, then as many as take about STEP_TARGET_MS (decision 31). The first
 * slice also plans its statement and reads cold pages: with 100 notes it held PGlite 145 ms on the large seed,
 * with 20 about 90.
 */
export function releaseStepSize(max = RELEASE_STEP_MAX): StepSize {
  return new StepSize({ max, start: Math.min(20, max) });
}

/**
 * 'Welle freigeben' in steps behind the floor (DESIGN §10, issue 37): taken as one statement, a profile without
 * filters held the embedded database 630 ms on the large seed, and every handheld waited. First the wave row,
 * then slice after slice of the notes not picked yet in (created_at, id) order — a keyset over their partial
 * index (migration 2026-11-27-01), oldest first — each slice one short statement of its own that takes those
 * of its notes that are pickable, in no wave, lying on no cart, held by no picker and matching the profile.
 * A slice is sized by the rows it reads, not those it takes: a rare filter still reads every candidate.
 *
 * Two desks releasing at once: the membership's primary key lets each note into one wave only (`on conflict
 * do nothing`; on PostgreSQL the second waits for the first's slice), and each wave counts what it got. None
 * → the wave row is deleted again and 409. A server that dies half-way leaves a wave of the notes taken so
 * far (decision 33: a note is in one wave at most, and the lead sees the count). Exactly once per key is the
 * route's (`registerSteppedWrite`: the key is claimed before the first step, the answer stored after the last).
 */
export async function releaseWave(
  steps: Steps,
  db: Db,
  profileId: number,
  change: Change,
  clock: ReleaseClock,
  size: StepSize = releaseStepSize(),
) {
  const { profile, wave, arrivedBefore } = await steps.run(() =>
    db.transaction().execute(async (trx) => {
      const profile = await profileById(trx, profileId);
      const wave = await trx
        .insertInto('pick_waves')
        .values({
          profile_id: profile.id,
          profile_name: profile.name,
          notes_per_cart: profile.notes_per_cart,
          released_by: change.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { profile, wave, arrivedBefore: await arrivedBeforeInstant(trx, profile, clock) };
    }),
  );
  const cutoff = new Date(clock.now.getTime() - clock.claimMinutes * 60_000).toISOString();
  const matches = matchesProfile(profile, arrivedBefore);
  // The last candidate read: its created_at as text, so the microseconds a JS Date would drop come back.
  let after = { at: '-infinity', id: 0 };
  let count = 0;
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        // The slice's plan is the same at every step (the index in keyset order, then each note's checks):
        // planned once as the named statement's generic plan, not again per step, where planning the
        // custom one was most of a small step's time. Only for this statement: `local` ends with it.
        const { rows } = await db.transaction().execute(async (trx) => {
          await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
          return sql<{
            read: string;
            taken: string;
            last_at: string | null;
            last_id: number | null;
          }>`
          with slice as (
            select n.id, n.created_at from delivery_notes n
            where n.picked_at is null and n.status in ('offen', 'klaerfall')
              and (n.created_at, n.id) > (${after.at}::timestamptz, ${after.id}::integer)
            order by n.created_at, n.id
            limit ${limit}::integer),
          taken as (
            insert into pick_wave_notes (delivery_note_id, wave_id)
            select n.id, ${wave.id}::integer from slice s join delivery_notes n on n.id = s.id
            where ${pickableNote}
              and ${claimedByNoOtherThan(NOBODY, cutoff)}
              and not exists (select 1 from pick_wave_notes x where x.delivery_note_id = n.id)
              and not exists (select 1 from pick_trip_notes tn where tn.delivery_note_id = n.id and tn.freed_at is null)
              and ${matches}
            order by n.created_at, n.id
            on conflict (delivery_note_id) do nothing
            returning 1),
          last as (select s.created_at::text as at, s.id from slice s order by s.created_at desc, s.id desc limit 1)
          select (select count(*) from slice) as read, (select count(*) from taken) as taken,
                 (select at from last) as last_at, (select id from last) as last_id`.execute(trx);
        });
        const row = rows[0];
        const read = Number(row?.read ?? 0);
        return { rows: read, taken: Number(row?.taken ?? 0), complete: read < limit, row };
      }),
    );
    count += slice.taken;
    if (slice.complete || slice.row?.last_at == null || slice.row.last_id == null) break;
    after = { at: slice.row.last_at, id: slice.row.last_id };
  }
  if (count === 0) {
    await steps.run(() => db.deleteFrom('pick_waves').where('id', '=', wave.id).execute());
    throw conflict(T.noMatch);
  }
  await steps.run(() =>
    recordAudit(db, {
      userId: change.userId,
      action: 'wave.release',
      subject: `Welle ${wave.id}`,
      detail: { profil: profile.name, lieferscheine: count, proWagen: profile.notes_per_cart },
      requestKey: change.requestKey,
    }),
  );
  return {
    success: true as const,
    message: T.releasedWave(wave.id, count),
    welleId: wave.id,
    lieferscheine: count,
  };
}

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
