import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/server/db/schema.ts';
import { claimedByNoOtherThan, pickableNote } from '../src/server/domain/pickable.ts';
import { addPickCart } from '../src/server/seed/demo.ts';

/**
 * Filling a pick cart (issue 41): a 20-compartment cart filled from a wave of 2,000 notes on the large
 * warehouse, its route over all lines computed — the answer a picker waits for after scanning the cart —
 * beside the single-note claim ('Nächster Auftrag'). One picker at a time, over HTTP against the real server:
 * the fill is a handheld's call and must answer within its budget whatever the wave's size. Each fill is
 * followed by 'Abbrechen' (not timed), which frees the notes, so every fill reads the same wave.
 */
export const CART_FILL_NAME = 'cart fill';
export const BENCH_CART = 'BENCH-KW';
const COMPARTMENTS = 20;
const WAVE_NOTES = 2_000;
/** The fill's goal: well inside the overload limit (OVERLOAD_MAX_WAIT_MS, 500 ms), as any handheld call. */
export const CART_FILL_P99_MS = 250;

/**
 * The bench cart with its 20 compartments and a wave of up to 2,000 pickable notes (fewer at --quick scale),
 * straight in the database before the server starts. Returns the wave's size.
 */
export async function prepareCartFill(db: Kysely<Database>, scale: number): Promise<number> {
  await addPickCart(db, BENCH_CART, COMPARTMENTS);
  const lead = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'schichtleitung')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const wave = await db
    .insertInto('pick_waves')
    .values({ profile_name: 'Bench', released_by: lead.id, notes_per_cart: COMPARTMENTS })
    .returning('id')
    .executeTakeFirstOrThrow();
  // At --quick scale the warehouse has a few hundred pickable notes: the wave takes at most half of them, so
  // 'Nächster Auftrag' (which skips notes in a wave) still finds some.
  const { rows: pickable } = await sql<{ n: number }>`
    select count(*)::int as n from delivery_notes n where ${pickableNote}`.execute(db);
  const size = Math.min(
    Math.round(WAVE_NOTES * Math.min(1, scale * 10)),
    Math.floor((pickable[0]?.n ?? 0) / 2),
  );
  if (size < COMPARTMENTS) throw new Error(`cart fill: only ${pickable[0]?.n} pickable notes`);
  const { rows } = await sql<{ n: number }>`
    with taken as (
      insert into pick_wave_notes (delivery_note_id, wave_id)
      select n.id, ${wave.id}::integer from delivery_notes n
      where ${pickableNote} and ${claimedByNoOtherThan(-1, new Date().toISOString())}
        and not exists (select 1 from pick_wave_notes w where w.delivery_note_id = n.id)
      order by n.created_at desc, n.id desc
      limit ${size}::integer
      on conflict do nothing
      returning 1)
    select count(*)::int as n from taken`.execute(db);
  return rows[0]?.n ?? 0;
}

export interface CallTimes {
  runs: number;
  p50: number;
  p99: number;
  max: number;
  /** Notes on the cart after each fill (the smallest seen): a fill that came back short would show here. */
  fewestNotes: number;
}

function times(values: number[], fewestNotes: number): CallTimes {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { runs: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, fewestNotes };
}

async function post(base: string, token: string, path: string, body: unknown): Promise<unknown> {
  const answer = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
  const json = (await answer.json()) as { data?: unknown; message?: string };
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${json.message ?? ''}`);
  return json.data;
}

/** `runs` fills of the bench cart and as many single-note claims, one after another. */
export async function measureCartFill(options: {
  base: string;
  token: string;
  runs: number;
}): Promise<{ fill: CallTimes; single: CallTimes }> {
  const { base, token, runs } = options;
  const fills: number[] = [];
  let fewestNotes = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    const trip = (await post(base, token, '/api/kommissionierung/wagen', { code: BENCH_CART })) as {
      id: number;
      faecher: { auftrag: unknown }[];
    };
    const took = performance.now() - started;
    await post(base, token, '/api/kommissionierung/wagen/abbrechen', { fahrtId: trip.id });
    if (i < 2) continue; // the first two warm the server's code up
    fills.push(took);
    fewestNotes = Math.min(fewestNotes, trip.faecher.filter((f) => f.auftrag !== null).length);
  }
  const singles: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    const note = (await post(base, token, '/api/kommissionierung/naechster', {})) as { id: number };
    const took = performance.now() - started;
    await post(base, token, '/api/kommissionierung/abbrechen', { id: note.id });
    if (i >= 2) singles.push(took);
  }
  return { fill: times(fills, fewestNotes), single: times(singles, 1) };
}

export function cartFillRows(
  result: { fill: CallTimes; single: CallTimes },
  waveSize: number,
): { what: string; figure: string; goal: string; pass: boolean | null }[] {
  const ms = (x: number) => x.toFixed(x < 10 ? 1 : 0);
  const { fill, single } = result;
  return [
    {
      what: `${CART_FILL_NAME}: a ${COMPARTMENTS}-compartment cart from a wave of ${waveSize.toLocaleString('en')} notes, route computed (POST kommissionierung/wagen, one picker)`,
      figure: `p50 ${ms(fill.p50)} ms, p99 ${ms(fill.p99)} ms, max ${ms(fill.max)} ms over ${fill.runs} fills; ${fill.fewestNotes} notes on the cart at least`,
      goal: `p99 ≤ ${CART_FILL_P99_MS} ms, ${COMPARTMENTS} notes each`,
      pass: fill.p99 <= CART_FILL_P99_MS && fill.fewestNotes === COMPARTMENTS,
    },
    {
      what: `${CART_FILL_NAME}: beside it, the single-note claim ('Nächster Auftrag', POST kommissionierung/naechster)`,
      figure: `p50 ${ms(single.p50)} ms, p99 ${ms(single.p99)} ms, max ${ms(single.max)} ms over ${single.runs} claims`,
      goal: '—',
      pass: null,
    },
  ];
}
