import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { demo } from './demo-records.ts';

type Db = Kysely<Database>;

const userId = async (db: Db, where: { username: string } | { name: string }) => {
  const query = db.selectFrom('users').select('id');
  const row = await ('username' in where
    ? query.where('username', '=', where.username)
    : query.where('name', '=', where.name)
  ).executeTakeFirstOrThrow();
  return row.id;
};

/**
 * Permanente Inventur (issue 42, `demo.inventory`): the plan 'Gang A' and its tasks due today, and the
 * difference waiting for the shift lead — a first count by `demo` above tolerance ('nachzaehlung'), and its
 * recount by the card user above it again ('wartet'). Neither is posted: the stock stays as seeded. Seeded
 * after the opening stock, so both counts started after its journal (not stale).
 */
export async function seedInventory(db: Db): Promise<void> {
  const { plan, difference } = demo.inventory;
  const lead = await userId(db, { username: demo.leadUser.username });
  const worker = await userId(db, { username: demo.passwordUser.username });
  const cardUser = await userId(db, { name: demo.cardUser.name });
  const location = await db
    .selectFrom('locations')
    .select('id')
    .where('code', '=', difference.location)
    .executeTakeFirstOrThrow();
  const article = await db
    .selectFrom('articles')
    .select('id')
    .where('nummer', '=', difference.article.nummer)
    .executeTakeFirstOrThrow();
  const lastMovement = sql<number>`(select max(id) from movements)`;
  const counted = {
    location_id: location.id,
    started_at: sql<Date>`now()`,
    start_movement_id: lastMovement,
    finished_at: sql<Date>`now()`,
    due_on: sql<string>`current_date`,
  };
  const first = await db
    .insertInto('count_tasks')
    .values({
      ...counted,
      reason: 'fehlmenge',
      status: 'nachzaehlung',
      claimed_by: worker,
      counted_by: worker,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const recount = await db
    .insertInto('count_tasks')
    .values({
      ...counted,
      reason: 'nachzaehlung',
      status: 'wartet',
      recount_of: first.id,
      not_user_id: worker,
      claimed_by: cardUser,
      counted_by: cardUser,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('count_lines')
    .values([
      { task_id: first.id, article_id: article.id, counted: difference.firstCount, book: difference.book },
      { task_id: recount.id, article_id: article.id, counted: difference.recount, book: difference.book },
    ])
    .execute();

  const gangA = await db
    .insertInto('count_plans')
    .values({
      name: plan.name,
      kind: 'bereich',
      location_from: plan.from,
      location_to: plan.to,
      created_by: lead,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // One task per location of the range, except where a task is open (the difference waiting above).
  await sql`insert into count_tasks (location_id, plan_id, reason, due_on)
    select l.id, ${gangA.id}, 'plan', current_date from locations l
    where l.code collate "C" between ${plan.from} and ${plan.to} and not l.is_lhm
    order by l.code collate "C"
    on conflict do nothing`.execute(db);
}
