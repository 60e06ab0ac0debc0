import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { claimedByNoOtherThan, pickableNote } from '../../domain/pickable.ts';
import { claim, claimCutoff, type Picker, type PickNote } from '../../domain/picking.ts';

type Db = Kysely<Database>;

interface Candidate extends PickNote {
  wave_id: number | null;
}

/** A free compartment of the cart being filled. */
export interface FreeCompartment {
  id: number;
  number: number;
}

/**
 * Fills the free compartments of a new trip, in number order, with one note each (decision 33): the notes of
 * the oldest released wave that still has pickable notes on no cart, in their order — at most the wave's
 * `notes_per_cart` — or, when no wave has any, the oldest pickable notes outside every wave. Only notes nobody else holds
 * (`claimedByNoOtherThan`). Answers how many were placed.
 *
 * Candidates are read a batch at a time (twice the free compartments), oldest first, so a wave of thousands
 * of notes costs one short read. Each is placed by one insert that a concurrent fill of another cart may have
 * beaten (`on conflict … do nothing`: no row, take the next candidate; the partial unique index decides on
 * both databases), then claimed as the single note is claimed — a claim the single-note flow took in the same
 * moment wins, and the note leaves the compartment again (our own row, never seen by anyone).
 */
export async function fillTrip(
  db: Db,
  picker: Picker,
  trip: { id: number; cartId: number },
  free: readonly FreeCompartment[],
): Promise<number> {
  const batch = 2 * free.length;
  const tried: number[] = [];
  let placed = 0;

  /** Puts the candidate into the next free compartment; false when another cart or picker got it first. */
  const place = async (note: Candidate): Promise<boolean> => {
    const compartment = free[placed];
    if (!compartment) return false;
    const { rows } = await sql<{ id: number }>`
      insert into pick_trip_notes (trip_id, cart_id, compartment_id, delivery_note_id, wave_id)
      values (${trip.id}, ${trip.cartId}, ${compartment.id}, ${note.id}, ${note.wave_id})
      on conflict (delivery_note_id) where freed_at is null do nothing
      returning id`.execute(db);
    const row = rows[0];
    if (!row) return false;
    if (!(await claim(db, picker, note, true))) {
      await db.deleteFrom('pick_trip_notes').where('id', '=', row.id).execute();
      return false;
    }
    placed++;
    return true;
  };

  // The oldest wave with a note to take, its notes in order; should another cart have taken every one of
  // them in the meantime, the next wave. The rest of the cart comes from the wave of its first note alone.
  for (let round = 0; round < 20; round++) {
    const wave = await nextWave(db, picker, tried);
    if (!wave) break;
    const limit = Math.min(free.length, wave.notes_per_cart);
    for (let part = 0; part < 50; part++) {
      const candidates = await waveCandidates(db, picker, wave.id, tried, batch);
      for (const note of candidates) {
        tried.push(note.id);
        await place(note);
        if (placed >= limit) return placed;
      }
      if (candidates.length < batch) break;
    }
    if (placed > 0) return placed;
  }

  // No wave: the oldest pickable notes outside every wave.
  for (let round = 0; round < 50; round++) {
    const candidates = await looseCandidates(db, picker, tried, batch);
    for (const note of candidates) {
      tried.push(note.id);
      await place(note);
      if (placed >= free.length) return placed;
    }
    if (candidates.length < batch) break;
  }
  return placed;
}

/** Over the note as `n`: pickable, on no cart, nobody else's, not tried by this fill already. */
function available(picker: Picker, tried: readonly number[]) {
  return sql<boolean>`${pickableNote} and ${claimedByNoOtherThan(picker.userId, claimCutoff(picker))}
    and not exists (select 1 from pick_trip_notes t where t.delivery_note_id = n.id and t.freed_at is null)
    and n.id <> all(${tried}::int[])`;
}

/**
 * The oldest released wave with a note to take. Each wave is asked only until its first such note (in the
 * order below), so the current wave costs a few reads; a wave done with is read through each time (the
 * Leitstand's waves are few a day).
 */
async function nextWave(
  db: Db,
  picker: Picker,
  tried: readonly number[],
): Promise<{ id: number; notes_per_cart: number } | undefined> {
  const { rows } = await sql<{ id: number; notes_per_cart: number }>`
    select w.id, w.notes_per_cart from pick_waves w
    where exists (select 1 from pick_wave_notes wn join delivery_notes n on n.id = wn.delivery_note_id
      where wn.wave_id = w.id and ${available(picker, tried)})
    order by w.released_at, w.id
    limit 1`.execute(db);
  return rows[0];
}

/**
 * The wave's next candidates in the order of their notes (import order), read along the index of the wave's
 * notes (migration 2026-11-28-06) until `limit` qualify: a 2,000-note wave is not read whole to sort it.
 */
async function waveCandidates(
  db: Db,
  picker: Picker,
  waveId: number,
  tried: readonly number[],
  limit: number,
): Promise<Candidate[]> {
  const { rows } = await sql<Candidate>`
    select n.id, n.belegnr, n.status, n.picked_at, wn.wave_id
    from pick_wave_notes wn join delivery_notes n on n.id = wn.delivery_note_id
    where wn.wave_id = ${waveId} and ${available(picker, tried)}
    order by wn.delivery_note_id
    limit ${limit}`.execute(db);
  return rows;
}

/** The next candidates outside every wave, oldest first (read from the notes not yet picked, as pickNext). */
async function looseCandidates(
  db: Db,
  picker: Picker,
  tried: readonly number[],
  limit: number,
): Promise<Candidate[]> {
  const { rows } = await sql<Candidate>`
    select n.id, n.belegnr, n.status, n.picked_at, null::int as wave_id
    from delivery_notes n
    where ${available(picker, tried)}
      and not exists (select 1 from pick_wave_notes w where w.delivery_note_id = n.id)
    order by n.created_at, n.id
    limit ${limit}`.execute(db);
  return rows;
}
