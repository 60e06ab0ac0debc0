import { describe, expect, it } from 'vitest';
import { importTexts } from '../../contract/leitstand/import.ts';
import {
  type ImportReasons,
  type ImportSummaries,
  importReasonTexts,
  importSummaryTexts,
  render,
} from '../../contract/leitstand/import-messages.ts';
import { englishReasons, englishSummaries } from './messages.ts';

/** Parameters for every code (typed: a new code needs one here, so both its texts are read below). */
const reasons: { [C in keyof ImportReasons]: ImportReasons[C] } = {
  empty: {},
  tooLong: { max: 200 },
  tooShort: { min: 8 },
  controlCharacter: {},
  hiddenCharacter: { codePoint: 'U+202E' },
  notANumber: { value: 'zwölf' },
  notAWholeNumber: { value: '12,5' },
  outOfRange: { value: 1_000_001, min: 1, max: 1_000_000 },
  notADate: { value: '31.13' },
  notACalendarDate: { value: '31.02.2027' },
  notABoolean: { value: 'vielleicht' },
  notAnEan: { value: '4006381333987' },
  quoteNotClosed: {},
  textAfterQuote: {},
  fileEmpty: {},
  columnRepeated: { column: 'Artikelnummer' },
  columnMissing: {},
  tooManyFields: { fields: 4, header: 3 },
  lineTooLong: { max: 50_000 },
  unreadable: {},
  duplicate: { what: 'Artikelnummer', line: 2 },
  unknownArticle: { nummer: '100001' },
  unknownLocation: { code: 'A-01-01-01' },
  unknownNote: { belegnr: 'LS1' },
  unknownBatch: { batch: '310001' },
  unknownProject: { projekt: 'Abholung' },
  passwordNeedsUsername: {},
  noUsernameNoCard: {},
  cardTaken: { name: 'Demo Nutzer' },
  noLoginWay: {},
  lastActiveAdmin: {},
  mengeWithoutArticle: {},
  differsInNote: { line: 2 },
  euMissing: {},
  articleTwiceInNote: { line: 2 },
  packedLineMissing: { nummer: '100001', packed: 3 },
  belowPacked: { amount: 1, packed: 3 },
  notePacked: { belegnr: 'LS1' },
  pickedLineMissing: { nummer: '100001', picked: 3 },
  belowPicked: { amount: 1, picked: 3 },
  differsInReceipt: { line: 2 },
  receiptLineTwice: { line: 2 },
  receivedLineMissing: { nummer: '100002', charge: 'CH-1', received: 4 },
  receiptClosed: { nummer: 'WE1' },
  receiptLineRefused: { line: 2 },
  noteLineRefused: { line: 2 },
  unknownCarrier: { value: 'UPS', carriers: 'DHL, GLS' },
  unknownLanguage: { value: 'fr', languages: 'de, en, pl' },
  codeTaken: { code: 'KW01-3' },
  compartmentUsed: { code: 'KW01-6' },
  imageWithPath: { image: '../a.jpg' },
  imageWithoutCarton: {},
  cartonTwice: { line: 2 },
  imageMissing: { file: 'bilder/a.jpg' },
  imageNotJpeg: { image: 'a.png' },
  minimumMissing: {},
  minimumWithoutArticle: {},
  differsInLocation: { line: 2 },
  minimumTwice: { line: 2 },
  slotTwice: { line: 2 },
  chargeRequired: { nummer: '100001' },
  mhdRequired: { nummer: '100001' },
  aboveMaximum: { nummer: '100001', code: 'A-01-01-01', total: 1_000_000_001, max: 1_000_000_000 },
};
const summaries: { [C in keyof ImportSummaries]: ImportSummaries[C] } = {
  counts: { what: 'articles', inserted: 3, updated: 1, unchanged: 1200 },
  noteLines: { inserted: 2, updated: 0, removed: 1 },
  receiptLines: { inserted: 2, updated: 1, removed: 0 },
  minimums: { set: 1, removed: 0, unchanged: 2 },
  pictures: { copied: 2, target: '/data/kartonagen', unchanged: 0 },
  picturesNotCopied: {},
  stock: { up: 1, down: 2, unchanged: 3 },
};

/** Words that give away an English text (German ones of the same spelling are not among them). */
const ENGLISH =
  /\b(is|the|not|no|of|to|after|already|empty|line|has|must|would|and|or|new|changed|unchanged)\b/;

describe('the import engine’s messages', () => {
  it('every reason and summary line reads in English for the CLI and in German for the Leitstand', () => {
    const all = [
      ...Object.entries(reasons).map(([code, params]) => ({
        code,
        english: render(englishReasons, { code: code as keyof ImportReasons, params }),
        german: render(importReasonTexts, { code: code as keyof ImportReasons, params }),
      })),
      ...Object.entries(summaries).map(([code, params]) => ({
        code,
        english: render(englishSummaries, { code: code as keyof ImportSummaries, params }),
        german: render(importSummaryTexts, { code: code as keyof ImportSummaries, params }),
      })),
    ];
    for (const { code, english, german } of all) {
      expect(english, code).toMatch(ENGLISH);
      expect(german, code).not.toMatch(ENGLISH);
      expect(german, code).not.toBe(english);
    }
  });

  it('German numbers are written the German way', () => {
    expect(importTexts.reason({ code: 'outOfRange', params: reasons.outOfRange })).toBe(
      '1.000.001 liegt nicht zwischen 1 und 1.000.000',
    );
    expect(render(englishReasons, { code: 'outOfRange', params: reasons.outOfRange })).toBe(
      '1000001 is not between 1 and 1000000',
    );
  });
});
