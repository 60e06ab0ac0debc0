import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cartPicking from '../../src/server/db/migrations/2026-11-28-04-cart-picking.ts';
import * as cartTrips from '../../src/server/db/migrations/2026-11-28-05-cart-trips.ts';
import * as cartUndo from '../../src/server/db/migrations/2026-11-28-06-cart-undo-and-wave-order.ts';
import * as compartmentFreeing from '../../src/server/db/migrations/2026-11-28-07-compartment-freeing.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { startTestApp, type TestApp, userIdOf } from '../support/app.ts';
import { databaseKinds, refusal } from '../support/db.ts';

describe.each(databaseKinds())('the cart-picking tables (issue 41 step A, decision 33) on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<Database>;
  let userId: number;
  let notes: number[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.database.db;
    userId = await userIdOf(db, 'demo');
    notes = (await db.selectFrom('delivery_notes').select('id').orderBy('id').limit(3).execute()).map(
      (n) => n.id,
    );
  });
  afterAll(() => t.close());

  async function cartWithTrip(trx: Kysely<Database>, code: string) {
    const cart = await trx
      .insertInto('pick_carts')
      .values({ code })
      .returning('id')
      .executeTakeFirstOrThrow();
    const compartments = await trx
      .insertInto('pick_cart_compartments')
      .values([1, 2].map((n) => ({ cart_id: cart.id, number: n, code: `${code}-${n}` })))
      .returning('id')
      .execute();
    const trip = await trx
      .insertInto('pick_trips')
      .values({ cart_id: cart.id, user_id: userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { cartId: cart.id, tripId: trip.id, compartmentIds: compartments.map((c) => c.id) };
  }
  type CartTrip = Awaited<ReturnType<typeof cartWithTrip>>;

  /** Lays `note` into a compartment of the cart (its first unless `compartmentId`), on its trip unless `tripId`. */
  function put(
    trx: Kysely<Database>,
    cart: CartTrip,
    note: number,
    more: { tripId?: number; compartmentId?: number; waveId?: number } = {},
  ) {
    return trx
      .insertInto('pick_trip_notes')
      .values({
        trip_id: more.tripId ?? cart.tripId,
        cart_id: cart.cartId,
        compartment_id: more.compartmentId ?? (cart.compartmentIds[0] as number),
        delivery_note_id: note,
        ...(more.waveId === undefined ? {} : { wave_id: more.waveId }),
      })
      .execute();
  }

  /** Ends the cart's trip and starts its next one: the next trip's id. */
  async function nextTrip(trx: Kysely<Database>, cart: CartTrip): Promise<number> {
    await trx
      .updateTable('pick_trips')
      .set({ finished_at: new Date() })
      .where('id', '=', cart.tripId)
      .execute();
    const next = await trx
      .insertInto('pick_trips')
      .values({ cart_id: cart.cartId, user_id: userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return next.id;
  }

  /** Takes a cart made outside a rolled-back transaction away again, with its trips and notes. */
  async function removeCart(cart: CartTrip) {
    await db.deleteFrom('pick_trip_notes').where('cart_id', '=', cart.cartId).execute();
    await db.deleteFrom('pick_trips').where('cart_id', '=', cart.cartId).execute();
    await db.deleteFrom('pick_cart_compartments').where('cart_id', '=', cart.cartId).execute();
    await db.deleteFrom('pick_carts').where('id', '=', cart.cartId).execute();
  }

  it('refuses a compartment code twice, and a compartment number twice on one cart', async () => {
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        const b = await cartWithTrip(trx, 'TW02');
        await trx
          .insertInto('pick_cart_compartments')
          .values({ cart_id: b.cartId, number: 3, code: 'TW01-1' })
          .execute();
        void a;
      }),
    ).toMatch(/unique|duplicate/i);
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        await trx
          .insertInto('pick_cart_compartments')
          .values({ cart_id: a.cartId, number: 2, code: 'TW01-X' })
          .execute();
      }),
    ).toMatch(/unique|duplicate/i);
  });

  it('puts a note on at most one cart and one note into a compartment until it is freed', async () => {
    const [n1, n2] = notes as [number, number];
    // A second cart's open trip cannot take a note that lies on the first.
    expect(
      await refusal(db, async (trx) => {
        await put(trx, await cartWithTrip(trx, 'TW01'), n1);
        await put(trx, await cartWithTrip(trx, 'TW02'), n1);
      }),
    ).toMatch(/pick_trip_notes_note_on_one_cart/);
    // A compartment still holding an unpacked note (an earlier trip) takes no second one; once packed it does.
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        await put(trx, a, n1);
        await put(trx, a, n2, { tripId: await nextTrip(trx, a) });
      }),
    ).toMatch(/pick_trip_notes_one_note_per_compartment/);
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        await put(trx, a, n1);
        await trx
          .updateTable('pick_trip_notes')
          .set({ freed_at: new Date(), freed_reason: 'gepackt' })
          .where('delivery_note_id', '=', n1)
          .execute();
        await put(trx, a, n2, { tripId: await nextTrip(trx, a) });
      }),
    ).toBe('');
  });

  it("refuses a second open trip of one cart and another cart's compartment on a trip", async () => {
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        await trx.insertInto('pick_trips').values({ cart_id: a.cartId, user_id: userId }).execute();
      }),
    ).toMatch(/pick_trips_one_open_per_cart/);
    expect(
      await refusal(db, async (trx) => {
        const a = await cartWithTrip(trx, 'TW01');
        const b = await cartWithTrip(trx, 'TW02');
        await put(trx, a, notes[0] as number, { compartmentId: b.compartmentIds[0] as number });
      }),
    ).toMatch(/foreign key/i);
  });

  it('keeps a note in one wave, and in it once a cart held the note', async () => {
    const [n1] = notes as [number];
    const wave = async (trx: Kysely<Database>) =>
      (
        await trx
          .insertInto('pick_waves')
          .values({ profile_name: 'Test', released_by: userId, notes_per_cart: 6 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    expect(
      await refusal(db, async (trx) => {
        const w1 = await wave(trx);
        const w2 = await wave(trx);
        await trx.insertInto('pick_wave_notes').values({ delivery_note_id: n1, wave_id: w1 }).execute();
        await trx.insertInto('pick_wave_notes').values({ delivery_note_id: n1, wave_id: w2 }).execute();
      }),
    ).toMatch(/unique|duplicate/i);
    // Taken out before it is on a cart: fine.
    expect(
      await refusal(db, async (trx) => {
        const w1 = await wave(trx);
        await trx.insertInto('pick_wave_notes').values({ delivery_note_id: n1, wave_id: w1 }).execute();
        await trx.deleteFrom('pick_wave_notes').where('delivery_note_id', '=', n1).execute();
      }),
    ).toBe('');
    expect(
      await refusal(db, async (trx) => {
        const w1 = await wave(trx);
        await trx.insertInto('pick_wave_notes').values({ delivery_note_id: n1, wave_id: w1 }).execute();
        await put(trx, await cartWithTrip(trx, 'TW01'), n1, { waveId: w1 });
        await trx.deleteFrom('pick_wave_notes').where('delivery_note_id', '=', n1).execute();
      }),
    ).toMatch(/foreign key/i);
  });

  it('gives a note to one of two carts filled at once: the other insert finds it taken and gets no row', async () => {
    const made: { cartId: number; tripId: number; compartmentIds: number[] }[] = [];
    for (const code of ['TC01', 'TC02']) made.push(await cartWithTrip(db, code));
    const note = notes[2] as number;
    try {
      const fill = (cart: (typeof made)[number]) =>
        db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ id: number }>`
            insert into pick_trip_notes (trip_id, cart_id, compartment_id, delivery_note_id)
            values (${cart.tripId}, ${cart.cartId}, ${cart.compartmentIds[0]}, ${note})
            on conflict (delivery_note_id) where freed_at is null do nothing
            returning id`.execute(trx);
          // Hold the row a moment, so on PostgreSQL the other transaction waits on the index entry.
          await sql`select pg_sleep(0.05)`.execute(trx);
          return rows.length;
        });
      const won = await Promise.all(made.map(fill));
      expect(won.sort()).toEqual([0, 1]);
    } finally {
      for (const cart of made) await removeCart(cart);
    }
  });

  it('reverses a put once: a second row naming the same put is refused (2026-11-28-06)', async () => {
    // Any journal row will do for the index: the demo's opening stock.
    const put = await db
      .selectFrom('movements')
      .select(['id', 'article_id', 'to_location_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const reversal = {
      kind: 'kommissionierung' as const,
      article_id: put.article_id,
      to_location_id: put.to_location_id,
      amount: 1,
      charge: null,
      reverses_movement_id: put.id,
    };
    expect(
      await refusal(db, async (trx) => {
        await trx.insertInto('movements').values(reversal).execute();
        await trx.insertInto('movements').values(reversal).execute();
      }),
    ).toMatch(/movements_reversed_once/);
  });

  it('frees a compartment for a Klärfall closed or emptied by hand, for no other new reason; down and up (2026-11-28-07)', async () => {
    const freed = (trx: Kysely<Database>, trip: CartTrip, reason: string) =>
      trx
        .insertInto('pick_trip_notes')
        .values(
          [0, 1].map((i) => ({
            trip_id: trip.tripId,
            cart_id: trip.cartId,
            compartment_id: trip.compartmentIds[i] ?? 0,
            delivery_note_id: notes[i] ?? 0,
            freed_at: sql<Date>`now()`,
            freed_reason: (i === 0 ? reason : 'gepackt') as 'geleert',
          })),
        )
        .execute();
    expect(await refusal(db, async (trx) => freed(trx, await cartWithTrip(trx, 'TW07'), 'verloren'))).toMatch(
      /freed_reason_check/,
    );
    const trip = await cartWithTrip(db, 'TW08');
    try {
      await freed(db, trip, 'klaerfall');
      const reasons = async () =>
        (
          await db
            .selectFrom('pick_trip_notes')
            .select('freed_reason')
            .where('trip_id', '=', trip.tripId)
            .orderBy('id')
            .execute()
        ).map((r) => r.freed_reason);
      expect(await reasons()).toEqual(['klaerfall', 'gepackt']);
      // Down: freed, not packed, as the two reasons before knew it.
      await compartmentFreeing.down(db as never);
      expect(await reasons()).toEqual(['abgebrochen', 'gepackt']);
      expect(await refusal(db, (trx) => freed(trx, trip, 'geleert'))).toMatch(/freed_reason_check/);
      await compartmentFreeing.up(db as never);
      await db
        .updateTable('pick_trip_notes')
        .set({ freed_reason: 'geleert' })
        .where('trip_id', '=', trip.tripId)
        .where('freed_reason', '=', 'abgebrochen')
        .execute();
      expect(await reasons()).toEqual(['geleert', 'gepackt']);
    } finally {
      await removeCart(trip);
    }
  });

  it('goes down and up again', async () => {
    await db.deleteFrom('pick_profiles').execute();
    await db.deleteFrom('pick_cart_compartments').execute();
    await db.deleteFrom('pick_carts').execute();
    await compartmentFreeing.down(db as never);
    await cartUndo.down(db as never);
    await cartTrips.down(db as never);
    await cartPicking.down(db as never);
    await cartPicking.up(db as never);
    await cartTrips.up(db as never);
    await cartUndo.up(db as never);
    await compartmentFreeing.up(db as never);
    expect(await db.selectFrom('pick_carts').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('pick_trip_deferrals').select('trip_id').execute()).toEqual([]);
  });
});
