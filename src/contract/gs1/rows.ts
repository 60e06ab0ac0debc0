/**
 * The grammar of a dictionary entry: `AI[-last AI] [flags] component… [attribute…]`, as GS1's Barcode Syntax
 * Dictionary writes it (without its title). `decodeRow` is its one reader: the generator (`dictionary.ts`)
 * reads the dictionary with it, with stricter checks around it, and `table.ts` the generated rows.
 */

/** N: digits; X: GS1 character set 82; Y: character set 39; Z: base64url (character set 64). */
export type Cset = 'N' | 'X' | 'Y' | 'Z';

export interface Component {
  cset: Cset;
  min: number;
  max: number;
  /** `[…]` in the dictionary: may be left out once the data is used up. */
  optional: boolean;
  /** The dictionary's check routines ("linters") for this component, e.g. `csum`, `yymmd0`. */
  checks: string[];
}

export interface AiEntry {
  first: string;
  last: string;
  /** `*`: predefined length, never needs a separator after it; `?`: a Digital Link data attribute. */
  flags: string;
  components: Component[];
  /** Each group must be met by one of its alternatives; an alternative is AIs or patterns (`31nn`) joined by `+`. */
  req: string[][][];
  /** AIs or patterns that must not stand beside this one. */
  ex: string[];
  /** A Digital Link primary key: the orders of qualifiers it takes (`[[]]`: none); null: not a key. */
  dlKey: string[][] | null;
}

const COMPONENT = /^(\[)?([NXYZ])(\d+)?(?:\.\.(\d+))?(\])?((?:,[a-z0-9]+)*)$/;

export function decodeComponent(token: string): Component | null {
  const match = COMPONENT.exec(token);
  if (!match || Boolean(match[1]) !== Boolean(match[5])) return null;
  const [fixed, upTo] = [match[3], match[4]];
  if ((fixed === undefined) === (upTo === undefined)) return null; // exactly one of `N6` and `N..6`
  return {
    cset: match[2] as Cset,
    min: fixed === undefined ? 1 : Number(fixed),
    max: Number(fixed ?? upTo),
    optional: Boolean(match[1]),
    checks: (match[6] ?? '').split(',').filter(Boolean),
  };
}

/** One row (or dictionary line without its title) → its entry; throws on what it cannot read. */
export function decodeRow(row: string): AiEntry {
  const tokens = row.trim().split(/\s+/);
  const [first, last = first] = (tokens.shift() ?? '').split('-') as [string, string?];
  let flags = '';
  if (tokens[0] !== undefined && !/[A-Za-z0-9]/.test(tokens[0])) flags = tokens.shift() as string;
  const entry: AiEntry = { first, last, flags, components: [], req: [], ex: [], dlKey: null };
  for (const token of tokens) {
    const component = decodeComponent(token);
    if (component && entry.req.length === 0 && entry.ex.length === 0 && entry.dlKey === null) {
      entry.components.push(component);
      continue;
    }
    const [key, value] = token.split('=') as [string, string?];
    if (key === 'req' && value) entry.req.push(value.split(',').map((alternative) => alternative.split('+')));
    else if (key === 'ex' && value) entry.ex.push(...value.split(','));
    else if (key === 'dlpkey') entry.dlKey = value ? value.split('|').map((order) => order.split(',')) : [[]];
    else throw new Error(`GS1 AI table: cannot read "${token}" in "${row}"`);
  }
  return entry;
}

/** Every AI an entry covers (`3100-3105`: six). */
export function aisOf(entry: Pick<AiEntry, 'first' | 'last'>): string[] {
  const ais: string[] = [];
  for (let n = Number(entry.first); n <= Number(entry.last); n++)
    ais.push(String(n).padStart(entry.first.length, '0'));
  return ais;
}

/**
 * Length of AI plus data for every element string whose AI starts with these two digits — fixed by GS1 for
 * all time, also for AIs not allocated yet, so a reader can step over an AI it does not know (GS1 General
 * Specifications, "element strings with predefined length"). The dictionary's `*` flag agrees (tested).
 */
export const PREDEFINED_LENGTH: Readonly<Record<string, number>> = {
  '00': 20,
  '01': 16,
  '02': 16,
  '03': 16,
  '04': 18,
  '11': 8,
  '12': 8,
  '13': 8,
  '14': 8,
  '15': 8,
  '16': 8,
  '17': 8,
  '18': 8,
  '19': 8,
  '20': 4,
  '31': 10,
  '32': 10,
  '33': 10,
  '34': 10,
  '35': 10,
  '36': 10,
  '41': 16,
};

/** `31nn` matches 3100–3199; an AI matches itself. */
export function matchesPattern(ai: string, pattern: string): boolean {
  if (ai.length !== pattern.length) return false;
  for (let i = 0; i < ai.length; i++) if (pattern[i] !== 'n' && pattern[i] !== ai[i]) return false;
  return true;
}
