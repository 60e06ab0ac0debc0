import { KINDS } from '../../../import/kinds/index.ts';

/**
 * Leitstand › Import: a CSV uploaded while the server runs, through the engine of `npm run import`
 * (src/server/import/): the same encodings, checks and all-or-nothing rule, in steps behind the floor
 * (uploads.ts) — a repeat of the upload imports nothing twice. No `--skip-bad` and no `--images` here: a
 * refused line refuses the file; pictures are copied by the CLI only.
 */

/** The JSON around the file's base64 (its name, the keys) gets this much of the body limit. */
const ENVELOPE_BYTES = 4096;

/** The largest file an upload body of `limitBytes` carries: base64 writes 4 characters for 3 bytes. */
export function maxFileBytes(limitBytes: number): number {
  return Math.max(0, Math.floor((limitBytes - ENVELOPE_BYTES) / 4) * 3);
}

export function importKinds(limitBytes: number) {
  return {
    kinds: Object.entries(KINDS).map(([name, kind]) => ({
      name,
      columns: kind.columns.map((c) => ({ header: c.header, required: c.required === true })),
    })),
    maxFileBytes: maxFileBytes(limitBytes),
  };
}
