import type { PartialCatalogue } from './catalogue.ts';

/**
 * The developers' pseudo-language `qps` (decision 35, like Android's en-XA): every German text accented, about
 * 40 % longer and between markers — `⟦Ĺáǵéŕþļáţž ńíçĥţ ǵéƒúñðéñ·········⟧`. A screen or a server answer in it
 * shows at a glance a text that bypasses the catalogues (no markers, plain German), and where a longer
 * language would not fit. Made from the German trees when it is read, so it always has every key; a function
 * wraps German's and keeps its arguments as they are (a scanned value inside a text stays itself).
 */

export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

const ACCENTED: Record<string, string> = {
  a: 'á',
  c: 'ç',
  e: 'é',
  g: 'ǵ',
  h: 'ĥ',
  i: 'í',
  l: 'ļ',
  n: 'ñ',
  o: 'ó',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  C: 'Ç',
  E: 'É',
  G: 'Ǵ',
  H: 'Ĥ',
  I: 'Í',
  L: 'Ļ',
  N: 'Ñ',
  O: 'Ó',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ú',
  Y: 'Ý',
  Z: 'Ž',
};

/** What makes a text about 40 % longer: Polish and Turkish run that much longer than German. */
const LONGER = 0.4;
const PADDING = '·';

const accent = (text: string) => text.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter);

/**
 * A German text in the pseudo-language; `kept` (a function's text arguments) stay as they are wherever they
 * show in it. An empty text stays empty (nothing to show, nothing to find).
 */
export function pseudoText(german: string, kept: readonly string[] = []): string {
  if (german === '') return '';
  const parts = kept.filter((value) => value !== '').sort((a, b) => b.length - a.length);
  let text = '';
  let rest = german;
  while (rest !== '') {
    const next = parts
      .map((value) => ({ value, at: rest.indexOf(value) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) {
      text += accent(rest);
      break;
    }
    text += accent(rest.slice(0, next.at)) + next.value;
    rest = rest.slice(next.at + next.value.length);
  }
  return `${PSEUDO_OPEN}${text}${PADDING.repeat(Math.ceil(german.length * LONGER))}${PSEUDO_CLOSE}`;
}

type Tree = Record<string, unknown>;
type Text = (...params: unknown[]) => unknown;

const made = new WeakMap<object, unknown>();

function pseudoOf(value: unknown): unknown {
  if (typeof value === 'string') return pseudoText(value);
  if (typeof value !== 'function' && (value === null || typeof value !== 'object')) return value;
  const known = made.get(value);
  if (known) return known;
  const pseudo = typeof value === 'function' ? pseudoFunction(value as Text) : pseudoTree(value as Tree);
  made.set(value, pseudo);
  return pseudo;
}

function pseudoFunction(german: Text): Text {
  const text = (...params: unknown[]) =>
    pseudoText(
      String(german(...params)),
      params.filter((param): param is string => typeof param === 'string'),
    );
  // German's number of parameters: check.ts compares it, as for every catalogue.
  Object.defineProperty(text, 'length', { value: german.length });
  return text;
}

/**
 * The pseudo-language's catalogue over the German trees (load.ts hands them in: imported here, the trees'
 * module would become a download of its own, and the first download grew by its seams).
 */
export function pseudoTree(german: Tree): PartialCatalogue {
  return new Proxy(german, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property);
      return typeof property === 'string' ? pseudoOf(value) : value;
    },
  }) as PartialCatalogue;
}
