import { type Kysely, sql } from 'kysely';

/**
 * Permanente Inventur (issue 42, decision 34): count plans (Zählpläne) the shift lead keeps, the count tasks
 * (Zählaufträge, one location each) made from them or from a picker's Fehlmenge, the blind count's lines, the
 * count frequency and tolerance per ABC class, and each location's class.
 *
 * The rules that must hold under concurrency are constraints, so they hold on PostgreSQL and PGlite alike:
 * - at most one task per location is open — waiting to be counted ('offen'), being counted ('in_arbeit') or
 *   waiting for the shift lead's approval ('wartet'): a partial unique index. A difference waiting for
 *   approval keeps other counts off its location, so the recount a lead orders (or the stock a lead posts)
 *   never meets a second count of the same location;
 * - a counter has at most one task in work (a partial unique index);
 * - one line per task and article: a second scan of the article adds to it;
 * - a count posts at most once: posting moves the task from 'wartet'/'in_arbeit' to 'gebucht' by a guarded
 *   update (src/server/domain/count-tasks.ts), and the journal rows name the task (`movements.count_task_id`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table count_plans (
    id serial primary key,
    name text not null unique check (name <> ''),
    kind text not null check (kind in ('bereich', 'nicht_gezaehlt', 'null_oder_korrigiert', 'abc')),
    location_from text,
    location_to text,
    days integer check (days >= 1),
    abc_class text check (abc_class in ('A', 'B', 'C')),
    due_days integer not null default 0 check (due_days >= 0),
    assigned_user_id integer references users(id),
    created_by integer not null references users(id),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check ((location_from is null) = (location_to is null)),
    check (kind <> 'bereich' or location_from is not null),
    check (kind not in ('nicht_gezaehlt', 'null_oder_korrigiert') or days is not null),
    check (kind <> 'abc' or abc_class is not null)
  )`.execute(db);

  await sql`create table count_tasks (
    id serial primary key,
    location_id integer not null references locations(id),
    plan_id integer references count_plans(id) on delete set null,
    reason text not null check (reason in ('plan', 'fehlmenge', 'nachzaehlung')),
    due_on date not null,
    assigned_user_id integer references users(id),
    status text not null default 'offen'
      check (status in ('offen', 'in_arbeit', 'nachzaehlung', 'wartet', 'gebucht', 'veraltet', 'verworfen')),
    claimed_by integer references users(id),
    claim_login integer references sessions(id) on delete set null,
    claimed_at timestamptz,
    started_at timestamptz,
    start_movement_id integer,
    finished_at timestamptz,
    counted_by integer references users(id),
    recount_of integer references count_tasks(id),
    not_user_id integer references users(id),
    approved_by integer references users(id),
    approved_at timestamptz,
    created_at timestamptz not null default now(),
    check ((started_at is null) = (start_movement_id is null)),
    check (status <> 'in_arbeit' or claimed_by is not null)
  )`.execute(db);
  await sql`create unique index count_tasks_one_open_per_location
    on count_tasks (location_id) where status in ('offen', 'in_arbeit', 'wartet')`.execute(db);
  await sql`create index count_tasks_next_idx on count_tasks (status, assigned_user_id, due_on)`.execute(db);
  await sql`create index count_tasks_location_idx on count_tasks (location_id, finished_at)`.execute(db);
  await sql`create index count_tasks_plan_idx on count_tasks (plan_id) where plan_id is not null`.execute(db);
  await sql`create unique index count_tasks_one_in_work_per_counter
    on count_tasks (claimed_by) where status = 'in_arbeit'`.execute(db);

  await sql`create table count_lines (
    id serial primary key,
    task_id integer not null references count_tasks(id),
    article_id integer not null references articles(id),
    counted integer not null check (counted >= 0),
    book integer,
    unexpected boolean not null default false,
    request_key uuid,
    at timestamptz not null default now(),
    unique (task_id, article_id)
  )`.execute(db);
  await sql`create index count_lines_article_idx on count_lines (article_id)`.execute(db);

  await sql`create table count_classes (
    abc_class text primary key check (abc_class in ('A', 'B', 'C', '-')),
    frequency_days integer not null check (frequency_days between 1 and 3660),
    tolerance_pieces integer not null check (tolerance_pieces >= 0),
    tolerance_percent numeric(5, 2) not null check (tolerance_percent between 0 and 100),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`insert into count_classes (abc_class, frequency_days, tolerance_pieces, tolerance_percent) values
    ('A', 30, 0, 0), ('B', 90, 2, 2), ('C', 365, 5, 5), ('-', 365, 2, 5)`.execute(db);

  await sql`create table location_abc (
    location_id integer primary key references locations(id) on delete cascade,
    abc_class text not null check (abc_class in ('A', 'B', 'C')),
    computed_at timestamptz not null default now()
  )`.execute(db);

  await sql`alter table movements add column count_task_id integer references count_tasks(id)`.execute(db);
  await sql`create index movements_count_task_idx on movements (count_task_id) where count_task_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table movements drop column count_task_id`.execute(db);
  await sql`drop table location_abc`.execute(db);
  await sql`drop table count_classes`.execute(db);
  await sql`drop table count_lines`.execute(db);
  await sql`drop table count_tasks`.execute(db);
  await sql`drop table count_plans`.execute(db);
}
