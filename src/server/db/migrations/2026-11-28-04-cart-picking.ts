import { type Kysely, sql } from 'kysely';

/**
 * Rollende Kommissionierung (issue 41, decision 33): pick carts (Kommissionierwagen) and their compartments
 * (Fächer) as master data, the shift lead's pick profiles and the waves released from them, a cart's trip
 * and which note lies in which compartment on it, and the compartment a pick was put into (journal).
 *
 * The rules that must hold under concurrency are constraints, so they hold on PostgreSQL and PGlite alike:
 * - a note is in at most one wave: `pick_wave_notes` has the note as primary key;
 * - a note lies on at most one cart, a compartment holds at most one note: partial unique indexes over the
 *   rows of `pick_trip_notes` not yet freed (`freed_at is null`; packing or 'Abbrechen' frees them);
 * - a note leaves its wave only while it was never on a cart: the trip note references its wave membership
 *   (`(delivery_note_id, wave_id)`), so deleting that membership is refused once a cart holds the note;
 * - a compartment on a trip belongs to the trip's cart: composite foreign keys over `(id, cart_id)`;
 * - a cart has at most one open trip: a partial unique index over trips not finished.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table pick_carts (
    id serial primary key,
    code text not null unique check (code <> ''),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table pick_cart_compartments (
    id serial primary key,
    cart_id integer not null references pick_carts(id) on delete cascade,
    number integer not null check (number >= 1),
    code text not null unique check (code <> ''),
    unique (cart_id, number),
    unique (id, cart_id)
  )`.execute(db);

  await sql`create table pick_profiles (
    id serial primary key,
    name text not null unique check (name <> ''),
    versandart text,
    max_lines integer check (max_lines >= 1),
    eu boolean,
    arrived_before time,
    notes_per_cart integer not null check (notes_per_cart between 1 and 99),
    changed_by integer not null references users(id),
    changed_at timestamptz not null default now()
  )`.execute(db);

  await sql`create table pick_waves (
    id serial primary key,
    profile_id integer references pick_profiles(id) on delete set null,
    profile_name text not null,
    released_by integer not null references users(id),
    released_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table pick_wave_notes (
    delivery_note_id integer primary key references delivery_notes(id),
    wave_id integer not null references pick_waves(id),
    unique (delivery_note_id, wave_id)
  )`.execute(db);
  await sql`create index pick_wave_notes_wave_idx on pick_wave_notes (wave_id)`.execute(db);

  await sql`create table pick_trips (
    id serial primary key,
    cart_id integer not null references pick_carts(id),
    user_id integer not null references users(id),
    session_id integer references sessions(id) on delete set null,
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    unique (id, cart_id)
  )`.execute(db);
  await sql`create unique index pick_trips_one_open_per_cart on pick_trips (cart_id) where finished_at is null`.execute(
    db,
  );
  await sql`create index pick_trips_session_idx on pick_trips (session_id) where finished_at is null`.execute(
    db,
  );

  await sql`create table pick_trip_notes (
    id serial primary key,
    trip_id integer not null,
    cart_id integer not null,
    compartment_id integer not null,
    delivery_note_id integer not null references delivery_notes(id),
    wave_id integer,
    placed_at timestamptz not null default now(),
    freed_at timestamptz,
    freed_reason text check (freed_reason in ('gepackt', 'abgebrochen')),
    check ((freed_at is null) = (freed_reason is null)),
    foreign key (trip_id, cart_id) references pick_trips (id, cart_id),
    foreign key (compartment_id, cart_id) references pick_cart_compartments (id, cart_id),
    foreign key (delivery_note_id, wave_id) references pick_wave_notes (delivery_note_id, wave_id),
    unique (trip_id, compartment_id),
    unique (trip_id, delivery_note_id)
  )`.execute(db);
  await sql`create unique index pick_trip_notes_note_on_one_cart
    on pick_trip_notes (delivery_note_id) where freed_at is null`.execute(db);
  await sql`create unique index pick_trip_notes_one_note_per_compartment
    on pick_trip_notes (compartment_id) where freed_at is null`.execute(db);
  await sql`create index pick_trip_notes_wave_idx on pick_trip_notes (wave_id) where wave_id is not null`.execute(
    db,
  );

  await sql`alter table movements
    add column compartment_id integer references pick_cart_compartments(id),
    add column pick_trip_id integer references pick_trips(id)`.execute(db);
  await sql`create index movements_pick_trip_idx on movements (pick_trip_id) where pick_trip_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table movements drop column pick_trip_id, drop column compartment_id`.execute(db);
  await sql`drop table pick_trip_notes`.execute(db);
  await sql`drop table pick_trips`.execute(db);
  await sql`drop table pick_wave_notes`.execute(db);
  await sql`drop table pick_waves`.execute(db);
  await sql`drop table pick_profiles`.execute(db);
  await sql`drop table pick_cart_compartments`.execute(db);
  await sql`drop table pick_carts`.execute(db);
}
