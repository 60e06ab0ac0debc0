/**
 * What is wrong with a catalogue against the German trees (decision 35): a key German lacks, a text where
 * German has a function or a group (or the other way round), a function with another number of parameters,
 * or one that leaves out a placeholder German shows ('Lagerplatz "X" nicht gefunden!' → X must be in every
 * language's text). Missing keys are listed apart: German answers for them until a translator fills them.
 * The compiler checks the catalogue files already; this checks a catalogue as it is loaded, at run time.
 */
export interface Findings {
  missing: string[];
  wrong: string[];
}

type Tree = Record<string, unknown>;
type Text = (...params: unknown[]) => unknown;

const kind = (value: unknown) =>
  typeof value === 'function'
    ? 'function'
    : value !== null && typeof value === 'object'
      ? 'group'
      : typeof value;

/** Arguments that show up in a text as themselves, so each one German's text holds can be looked for. */
const sample = (index: number) => `«${index}»`;

export function catalogueFindings(german: Tree, catalogue: Tree): Findings {
  const findings: Findings = { missing: [], wrong: [] };
  walk(german, catalogue, [], findings);
  return findings;
}

function walk(german: Tree, catalogue: Tree, path: string[], findings: Findings): void {
  for (const key of Object.keys(catalogue))
    if (!(key in german)) findings.wrong.push(`${[...path, key].join('.')}: German has no such text`);
  for (const [key, value] of Object.entries(german)) {
    const name = [...path, key].join('.');
    const own = catalogue[key];
    if (own === undefined) {
      findings.missing.push(name);
    } else if (kind(own) !== kind(value)) {
      findings.wrong.push(`${name}: a ${kind(own)} where German has a ${kind(value)}`);
    } else if (typeof value === 'function') {
      placeholders(name, value as Text, own as Text, findings);
    } else if (kind(value) === 'group') {
      walk(value as Tree, own as Tree, [...path, key], findings);
    }
  }
}

function placeholders(name: string, german: Text, own: Text, findings: Findings): void {
  if (own.length !== german.length) {
    findings.wrong.push(`${name}: ${own.length} parameters, German has ${german.length}`);
    return;
  }
  const params = Array.from({ length: german.length }, (_, i) => sample(i));
  let shown: string;
  try {
    shown = String(german(...params));
  } catch {
    return; // a parameter that is not a text (an object): only its count can be compared
  }
  let text: string;
  try {
    text = String(own(...params));
  } catch {
    findings.wrong.push(`${name}: fails where German answers`);
    return;
  }
  for (const param of params)
    if (shown.includes(param) && !text.includes(param)) findings.wrong.push(`${name}: leaves out ${param}`);
}
