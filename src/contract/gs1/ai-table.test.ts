import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICTIONARY_RELEASE } from './ai-table.ts';
import { CHECKS, NOT_CHECKED } from './checks.ts';
import { generateAiTable, readDictionary } from './dictionary.ts';
import { aisOf, PREDEFINED_LENGTH } from './rows.ts';
import { aiLengthOf, aiSpec, allAiSpecs } from './table.ts';

const here = import.meta.dirname;
const dictionaryText = fs.readFileSync(path.join(here, 'gs1-syntax-dictionary.txt'), 'utf8');
const dictionary = readDictionary(dictionaryText);

describe('the AI table is the dictionary', () => {
  it('ai-table.ts is what npm run gs1-table makes from the project’s copy of the dictionary', () => {
    const committed = fs.readFileSync(path.join(here, 'ai-table.ts'), 'utf8');
    // On failure: run `npm run gs1-table` and read the diff of ai-table.ts.
    expect(committed).toBe(generateAiTable(dictionaryText));
    expect(DICTIONARY_RELEASE).toBe(dictionary.release);
  });

  it('keeps GS1’s licence notice with the copy', () => {
    expect(dictionaryText).toContain('Copyright (c) 2021-2026 GS1 AISBL');
    expect(dictionaryText).toContain('Licensed under the Apache License, Version 2.0');
    expect(fs.readFileSync(path.join(here, 'LICENSE-Apache-2.0.txt'), 'utf8')).toContain(
      'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION',
    );
  });

  it('decodes every AI of every dictionary line with its format, length, separator need and rules', () => {
    const ais = dictionary.lines.flatMap((line) => aisOf(line.entry).map((ai) => ({ ai, line })));
    expect(allAiSpecs().map((s) => s.ai)).toEqual(ais.map(({ ai }) => ai));
    for (const { ai, line } of ais) {
      const spec = aiSpec(ai);
      expect(spec, ai).toMatchObject({ ...line.entry, predefined: line.entry.flags.includes('*') });
    }
  });

  it('has every routine the dictionary names either checked or listed as left out', () => {
    const named = new Set(dictionary.lines.flatMap((l) => l.entry.components.flatMap((c) => c.checks)));
    const unknown = [...named].filter((name) => !(name in CHECKS) && !(name in NOT_CHECKED));
    expect(unknown).toEqual([]);
    const stale = [...Object.keys(CHECKS), ...Object.keys(NOT_CHECKED)].filter((name) => !named.has(name));
    expect(stale).toEqual([]);
  });

  it.each([
    ['00', { predefined: true, key: true, maxLength: 18, dlKey: [[]] }],
    ['01', { predefined: true, key: true, maxLength: 14, dlKey: [['22', '10', '21'], ['235']] }],
    ['02', { predefined: true, key: true, req: [[['37']]], ex: ['01', '03'], dlKey: null }],
    ['10', { predefined: false, key: false, maxLength: 20, dlAttribute: true }],
    [
      '15',
      { predefined: true, components: [{ cset: 'N', min: 6, max: 6, optional: false, checks: ['yymmd0'] }] },
    ],
    ['21', { predefined: false, dlAttribute: false, ex: ['235'] }],
    ['90', { maxLength: 30 }],
    ['91', { maxLength: 90 }],
    ['99', { maxLength: 90 }],
    [
      '410',
      {
        predefined: true,
        key: false,
        components: [{ cset: 'N', min: 13, max: 13, optional: false, checks: ['csum', 'gcppos1'] }],
      },
    ],
    ['414', { key: true, dlKey: [['254'], ['7040']] }],
    ['417', { key: true }],
    ['3103', { predefined: true, maxLength: 6, ex: ['310n'] }],
    ['3922', { predefined: false, req: [[['01']], [['30'], ['31nn'], ['32nn'], ['35nn'], ['36nn']]] }],
    ['8006', { key: true, maxLength: 18 }],
    ['8026', { key: true, dlKey: null }],
    ['8030', { components: [{ cset: 'Z', min: 1, max: 90, optional: false, checks: [] }] }],
  ])('(%s) as the dictionary says', (ai, expected) => {
    expect(aiSpec(ai)).toMatchObject(expected);
  });

  it('agrees with GS1’s predefined lengths: * exactly where the prefix has one, AI + data that long', () => {
    for (const spec of allAiSpecs()) {
      const fixed = PREDEFINED_LENGTH[spec.ai.slice(0, 2)];
      expect(spec.predefined, spec.ai).toBe(fixed !== undefined);
      if (fixed !== undefined) expect(spec.ai.length + spec.maxLength, spec.ai).toBe(fixed);
    }
    expect([
      aiLengthOf('31'),
      aiLengthOf('41'),
      aiLengthOf('70'),
      aiLengthOf('71'),
      aiLengthOf('55'),
    ]).toEqual([4, 3, 4, 3, undefined]);
  });
});

describe('reading a new dictionary release strictly', () => {
  const header = '# Release: 2099-01-01\n';
  it.each([
    ['an unknown flag', '01 *! N14,csum', /unknown flag/],
    ['AIs out of order', '10 ? X..20\n01 *? N14,csum', /lexical order/],
    ['an AI twice', '91-99 ? X..90\n95 ? X..30', /lexical order|again/],
    ['a component it cannot read', '10 ? X20..30', /cannot read/],
    ['a variable-length component before the last', '421 ? X..9 N3', /variable-length/],
    ['a mandatory component after an optional one', '423 ? N3 [N3] N3', /mandatory component/],
    ['an unknown attribute', '01 *? N14,csum dlkey', /cannot read/],
    ['* on a prefix without predefined length', '10 *? X..20', /predefined/],
    ['* with another length than GS1’s', '17 *? N8,yymmd0', /predefined length/],
    ['a prefix with predefined length but no *', '17 ? N6,yymmd0', /predefined/],
    ['AIs of one prefix with different lengths', '710 ? X..20\n7100 ? X..20', /different lengths/],
    ['a rule naming an AI it does not have', '10 ? X..20 req=01', /unknown AI 01/],
    ['a character the table cannot hold', '10 ? X..20,a`b', /cannot hold|cannot read/],
  ])('stops at %s', (_, lines, message) => {
    expect(() => readDictionary(header + lines)).toThrow(message);
  });

  it('stops without a release line', () => {
    expect(() => readDictionary('10 ? X..20')).toThrow(/Release/);
  });

  it('reads titles and ranges', () => {
    const { lines } = readDictionary(
      `${header}01 *? N14\n02 *? N14\n3100-3105 *? N6 req=01,02 ex=310n # NET WEIGHT (kg)`,
    );
    expect(lines[2]).toMatchObject({ title: 'NET WEIGHT (kg)', row: '3100-3105 *? N6 req=01,02 ex=310n' });
  });
});
