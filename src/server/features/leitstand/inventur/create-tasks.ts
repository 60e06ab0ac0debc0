import { type Kysely, type RawBuilder, sql } from 'kysely';
import { inventurLeitstandTexts as T } from '../../../../contract/leitstand/inventur.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict } from '../../../domain/errors.ts';
import { StepSize, type Steps } from '../../../http/back-office.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';
import { type Change, isActive, planById } from './plans.ts';

type Db = Kysely<Database>;

type Plan = Awaited<ReturnType<typeof planById>>;

/** What 'Aufträge anlegen' reads besides the plan: the app's clock and the site's time zone (the due day). */
export interface PlanClock {
  now: Date;
  timeZone: string;
}

const DAY_MS = 86_400_000;

/** The most locations one step reads (StepSize follows the measured time below it). */
export const CREATE_STEP_MAX = 2_000;

/**
 * A creation's steps: at first 20 locations — the first slice also plans its statement and meets cold pages
 * (with 50 it held PGlite 120–220 ms on a loaded machine) — then as many as take about STEP_TARGET_MS.
 */
export function createStepSize(max = CREATE_STEP_MAX): StepSize {
  return new StepSize({ max, start: Math.min(20, max) });
}

/**
 * Counted at `l` since `since`: a task counted there and posted, or a free Inventur booked there (which
 * counts as a count, also when it found the book stock right and wrote no movement).
 */
function countedSince(since: string): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from count_tasks c
                               where c.location_id = l.id and c.status = 'gebucht'
                                 and c.finished_at >= ${since}::timestamptz)
                       or exists (select 1 from inventory_counts i
                                  where i.location_id = l.id and i.at >= ${since}::timestamptz))`;
}

/**
 * Since `since`, an article's stock at `l` went to zero (a movement left it and nothing of that article is
 * there now) or was corrected (a journal row of kind inventur or korrektur on it). A count task's own
 * posting is left out: it is the count itself, not a reason for another.
 */
function zeroOrCorrectedSince(since: string): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from movements m
                               where m.from_location_id = l.id and m.at >= ${since}::timestamptz
                                 and m.count_task_id is null
                                 and (m.kind in ('inventur', 'korrektur')
                                      or not exists (select 1 from stock s where s.location_id = l.id
                                                     and s.article_id = m.article_id and s.amount > 0)))
                       or exists (select 1 from movements m
                                  where m.to_location_id = l.id and m.at >= ${since}::timestamptz
                                    and m.count_task_id is null and m.kind in ('inventur', 'korrektur')))`;
}

/** The plan's kind as a condition over the location `l`; `frequencyDays` is the abc class's (else unused). */
function matchesPlan(plan: Plan, now: Date, frequencyDays: number | null): RawBuilder<boolean> {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  switch (plan.kind) {
    case 'bereich':
      return sql<boolean>`true`;
    case 'nicht_gezaehlt':
      return sql<boolean>`not ${countedSince(since(plan.days ?? 0))}`;
    case 'null_oder_korrigiert':
      return zeroOrCorrectedSince(since(plan.days ?? 0));
    case 'abc':
      return sql<boolean>`(exists (select 1 from location_abc a
                                   where a.location_id = l.id and a.abc_class = ${plan.abc_class}::text)
                           and not ${countedSince(since(frequencyDays ?? 0))})`;
    default:
      throw new Error(`count plan ${plan.id}: unknown kind ${String(plan.kind)}`);
  }
}

/** The plan's range over `l`, in the codes' byte order (the location index's); none: every location. */
function inRange(plan: Plan): RawBuilder<boolean> {
  if (plan.location_from === null || plan.location_to === null) return sql<boolean>`true`;
  return sql<boolean>`(l.code collate "C" >= ${plan.location_from}::text collate "C"
                       and l.code collate "C" <= ${plan.location_to}::text collate "C")`;
}

/** The first step: the plan, its class's frequency and the due day (today in the site's zone + due_days). */
async function planAndDueDay(db: Db, planId: number, clock: PlanClock) {
  const plan = await planById(db, planId);
  // Only its assignee is offered a task given to somebody: one switched off since would leave them uncounted.
  if (plan.assigned_user_id !== null && !(await isActive(db, plan.assigned_user_id)))
    throw conflict(T.assigneeInactive);
  const frequency =
    plan.kind === 'abc' && plan.abc_class !== null
      ? await db
          .selectFrom('count_classes')
          .select('frequency_days')
          .where('abc_class', '=', plan.abc_class)
          .executeTakeFirst()
      : undefined;
  const { rows } = await sql<{ due: string }>`
    select ((${clock.now.toISOString()}::timestamptz at time zone ${clock.timeZone}::text)::date
            + ${plan.due_days}::integer)::text as due`.execute(db);
  const due = rows[0]?.due;
  if (due === undefined) throw new Error('due day: no answer');
  return { plan, frequencyDays: frequency?.frequency_days ?? null, due };
}

/**
 * 'Aufträge anlegen' in steps behind the floor (DESIGN §10): 20,000 locations as one statement would hold
 * the embedded database for the whole of it and every handheld wait. Slice after slice of the locations in
 * code order (a keyset over the `code collate "C"` index — also the walking order), each slice one short
 * statement that takes the locations the plan matches and inserts a task for each that has none open (offen,
 * in Arbeit, or a count waiting for approval). Two desks at once, or a handheld's Fehlmenge meanwhile: the
 * partial unique index lets one open task per location in, `on conflict do nothing` skips the other. Exactly
 * once per key is the route's (`registerSteppedWrite`); a server that dies half-way leaves the tasks made so
 * far, and 'Aufträge anlegen' again makes the rest (the made ones are skipped as open).
 */
export async function createTasks(
  steps: Steps,
  db: Db,
  planId: number,
  change: Change,
  clock: PlanClock,
  size: StepSize = createStepSize(),
) {
  const { plan, frequencyDays, due } = await steps.run(() => planAndDueDay(db, planId, clock));
  const matches = matchesPlan(plan, clock.now, frequencyDays);
  const range = inRange(plan);
  let after = '';
  let created = 0;
  let skipped = 0;
  for (;;) {
    const slice = await steps.run(() =>
      size.timed(async (limit) => {
        const { rows } = await db.transaction().execute(async (trx) => {
          // The same plan at every step: planned once as the named statement's generic plan.
          await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
          return sql<{ read: string; matched: string; taken: string; last: string | null }>`
            with slice as (
              select l.id, l.code from locations l
              where l.code collate "C" > ${after}::text collate "C" and ${range}
              order by l.code collate "C"
              limit ${limit}::integer),
            matched as (
              -- The slice itself as l (the plan's conditions read only l.id): joined back to locations,
              -- the generic plan hashed all 20,000 of them at every step.
              select l.id from slice l where ${matches}),
            taken as (
              insert into count_tasks (location_id, plan_id, reason, due_on, assigned_user_id, status)
              select m.id, ${plan.id}::integer, 'plan', ${due}::date, ${plan.assigned_user_id}::integer, 'offen'
              from matched m
              -- A location with a task open (offen, in Arbeit, wartet) is skipped by the one-open-task index,
              -- looked up per row: a 'not exists' here was planned as a hash of every open task, at every step.
              on conflict do nothing
              returning 1)
            select (select count(*) from slice) as read, (select count(*) from matched) as matched,
                   (select count(*) from taken) as taken,
                   (select s.code from slice s order by s.code collate "C" desc limit 1) as last`.execute(
            trx,
          );
        });
        const row = rows[0];
        const read = Number(row?.read ?? 0);
        return {
          rows: read,
          matched: Number(row?.matched ?? 0),
          taken: Number(row?.taken ?? 0),
          complete: read < limit,
          last: row?.last ?? null,
        };
      }),
    );
    created += slice.taken;
    skipped += slice.matched - slice.taken;
    if (slice.complete || slice.last === null) break;
    after = slice.last;
  }
  await steps.run(() =>
    recordAudit(db, {
      userId: change.userId,
      action: 'countTasks.create',
      subject: plan.name,
      detail: { angelegt: created, uebersprungen: skipped, faellig: due },
      requestKey: change.requestKey,
    }),
  );
  return {
    success: true as const,
    message: T.tasksCreated(created, skipped),
    angelegt: created,
    uebersprungen: skipped,
  };
}
