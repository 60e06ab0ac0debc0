import { type RawBuilder, sql } from 'kysely';

/**
 * Which delivery notes can be picked (decision 25): not picked yet, open or a Klärfall raised by a Fehlmenge
 * while picking it (the rest of the note goes on), with a line that has something left. One condition for
 * every flow that chooses notes — 'Nächster Auftrag', a cart's fill, a wave's release (issue 41) — over the
 * note as `n`, so the notes not yet picked are read from their partial index (migration 2026-11-27-01).
 */
export const pickableNote: RawBuilder<boolean> = sql<boolean>`(
  n.picked_at is null and n.status in ('offen', 'klaerfall')
  and (n.status = 'offen' or exists (
    select 1 from klaerfaelle k
    where k.delivery_note_id = n.id and k.outcome is null and k.quelle = 'kommissionierung'))
  and exists (
    select 1 from delivery_note_lines l
    where l.delivery_note_id = n.id and l.kommissioniert + l.fehlmenge < l.lsmenge))`;

/**
 * Nobody but `userId` holds the note: no claim, or one gone quiet since `cutoff` (PICK_CLAIM_MINUTES ago) or
 * whose login ended — over the note as `n`.
 */
export function claimedByNoOtherThan(userId: number, cutoff: string): RawBuilder<boolean> {
  return sql<boolean>`not exists (
    select 1 from pick_claims c
    where c.delivery_note_id = n.id and c.user_id <> ${userId}
      and c.seen_at >= ${cutoff}::timestamptz
      and not exists (select 1 from sessions s where s.id = c.session_id and s.revoked_at is not null))`;
}

/**
 * Not in a wave the shift lead released, and not lying in a cart's compartment (decision 33) — over the note
 * as `n`: 'Nächster Auftrag' leaves these to the carts. A note scanned by its number is still picked singly,
 * unless a cart holds it (domain/picking.ts `cartHolder`).
 */
export const notInWaveNorOnCart: RawBuilder<boolean> = sql<boolean>`(
  not exists (select 1 from pick_wave_notes w where w.delivery_note_id = n.id)
  and not exists (select 1 from pick_trip_notes t where t.delivery_note_id = n.id and t.freed_at is null))`;
