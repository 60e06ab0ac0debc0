import { type Kysely, type RawBuilder, sql } from 'kysely';
import { kommissionierungLeitstandTexts as T } from '../../../../contract/leitstand/kommissionierung.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict } from '../../../domain/errors.ts';
// The one rule of which notes can be picked, shared with 'Nächster Auftrag' and the cart's fill (decision 33).
import { claimedByNoOtherThan, pickableNote } from '../../../domain/pickable.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
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
