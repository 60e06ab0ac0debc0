import { AI_ROWS } from './ai-table.ts';
import { type AiEntry, aisOf, decodeRow } from './rows.ts';

/** The AI table at run time: `ai-table.ts` (generated from the dictionary) decoded once, at the first scan. */

export interface AiSpec extends AiEntry {
  ai: string;
  /** Predefined length (`*`): no group separator needed after it; every other AI is ended by one. */
  predefined: boolean;
  dlAttribute: boolean;
  /** An identification key (Digital Link primary key, or a GTIN of contents): any error in it refuses the label. */
  key: boolean;
  /** Longest data; for a predefined-length AI its length (the dictionary's `*` AIs have a fixed length). */
  maxLength: number;
}

interface Table {
  byAi: Map<string, AiSpec>;
  /** Two-digit prefix → length of the AIs that start with it (the same for all of them). */
  aiLength: Map<string, number>;
}

let table: Table | null = null;

function load(): Table {
  const byAi = new Map<string, AiSpec>();
  const aiLength = new Map<string, number>();
  for (const row of AI_ROWS.split('\n')) {
    if (row.trim() === '') continue;
    const entry = decodeRow(row);
    const first = entry.components[0];
    const spec = {
      ...entry,
      predefined: entry.flags.includes('*'),
      dlAttribute: entry.flags.includes('?'),
      key:
        entry.dlKey !== null ||
        (first?.cset === 'N' && first.min === 14 && first.max === 14 && first.checks.includes('csum')),
      maxLength: entry.components.reduce((sum, c) => sum + c.max, 0),
    };
    for (const ai of aisOf(entry)) {
      byAi.set(ai, { ...spec, ai });
      aiLength.set(ai.slice(0, 2), ai.length);
    }
  }
  return { byAi, aiLength };
}

/** The AI's entry, or undefined for an AI the dictionary does not know. */
export function aiSpec(ai: string): AiSpec | undefined {
  table ??= load();
  return table.byAi.get(ai);
}

/** How many digits the AIs starting with these two digits have, if the dictionary knows any of them. */
export function aiLengthOf(prefix: string): number | undefined {
  table ??= load();
  return table.aiLength.get(prefix);
}

/** Every AI of the table with its entry (tests, tools). */
export function allAiSpecs(): AiSpec[] {
  table ??= load();
  return [...table.byAi.values()];
}
