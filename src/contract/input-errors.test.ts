import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loginCard, loginPassword } from './auth.ts';
import { captureBatch } from './batch.ts';
import type { Endpoint } from './endpoint.ts';
import { contract, etikettenContract, extraContract, leitstandContract } from './index.ts';
import { fieldLabel, inputErrorMessage } from './input-errors.ts';
import { bookInventur } from './inventur.ts';
import { savePackageRecording } from './kartonagen.ts';
import { zollwagenAbschliessen } from './leitstand/zollwagen.ts';
import { findLp } from './lookup.ts';
import { packageContentCheat } from './paketinhalt.ts';
import { fieldLabels } from './texts.ts';
import { captureTransporter } from './transporter.ts';
import { moveArticle, moveLocation } from './umbuchung.ts';
import { bookWmsRetoure } from './wmsretoure.ts';

/** Every call a staff login makes: the handheld's, the Leitstand's and the labels'. */
const scannerCalls: readonly Endpoint[] = [
  ...contract,
  ...extraContract,
  ...leitstandContract,
  ...etikettenContract,
].filter((e) => e.audience === 'scanner');

/** Every object key a schema accepts, nested ones too (`kartonagen.amount`), through pipes and wrappers. */
function keysOf(schema: z.ZodType, prefix: string[] = []): string[][] {
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, value]) => [
      [...prefix, key],
      ...keysOf(value, [...prefix, key]),
    ]);
  if (schema instanceof z.ZodPipe) return keysOf(schema.in as z.ZodType, prefix);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return keysOf(schema.unwrap() as z.ZodType, prefix);
  if (schema instanceof z.ZodArray) return keysOf(schema.element as z.ZodType, prefix);
  return [];
}

const fieldsOf = (e: Endpoint) => [
  ...keysOf(e.params),
  ...keysOf(e.body),
  ...(e.query ? keysOf(e.query) : []),
];

/** The message a call answers for this body (or params), as the server builds it. */
function messageFor(e: Endpoint, part: 'params' | 'body', value: unknown): string {
  const parsed = e[part].safeParse(value, { reportInput: true });
  if (parsed.success) throw new Error('expected a refusal');
  return inputErrorMessage(e.name, parsed.error.issues[0]);
}

describe('German field names in server messages', () => {
  it('has a German label for every params, body and query field of every scanner call', () => {
    const unlabelled = scannerCalls.flatMap((e) =>
      fieldsOf(e)
        .filter((path) => path.some((key) => fieldLabel(e.name, key) === undefined))
        .map((path) => `${e.name}: ${path.join('.')}`),
    );
    expect(unlabelled).toEqual([]);
    // The walk itself finds fields (a schema shape it cannot see through would pass the check above).
    expect(fieldsOf(savePackageRecording).map((p) => p.join('.'))).toEqual([
      'id',
      'id',
      'belegnr',
      'user_id',
      'kartonagen',
      'kartonagen.packageid',
      'kartonagen.amount',
    ]);
  });

  it('keeps no label for a field no call has, nor an override for a call or field that does not exist', () => {
    const used = new Set(scannerCalls.flatMap((e) => fieldsOf(e).flat()));
    expect(Object.keys(fieldLabels.byKey).filter((key) => !used.has(key))).toEqual([]);
    for (const [name, overrides] of Object.entries(fieldLabels.byEndpoint)) {
      const call = scannerCalls.find((e) => e.name === name);
      expect(call, name).toBeDefined();
      const keys = new Set(call ? fieldsOf(call).flat() : []);
      for (const key of Object.keys(overrides)) expect(keys.has(key), `${name}.${key}`).toBe(true);
    }
  });

  it('names a key by what it means on that call', () => {
    expect(fieldLabel(findLp.name, 'code')).toBe('Lagerplatz');
    expect(fieldLabel(packageContentCheat.name, 'code')).toBe('Artikel');
    expect(fieldLabel(moveLocation.name, 'from')).toBe('Von Lagerplatz');
    expect(fieldLabel(moveLocation.name, 'to')).toBe('Nach Lagerplatz');
    expect(fieldLabel(moveArticle.name, 'from')).toBe('Quell-Lagerplatz');
    expect(fieldLabel(moveArticle.name, 'to')).toBe('Ziel-Lagerplatz');
    expect(fieldLabel(bookWmsRetoure.name, 'lagerplatz')).toBe('LHM');
    expect(fieldLabel(zollwagenAbschliessen.name, 'id')).toBe('Wagen');
  });

  it('says what is wrong with a scan: too long, a control character, empty, missing', () => {
    expect(messageFor(findLp, 'params', { code: 'x'.repeat(300) })).toBe(
      'Lagerplatz ist zu lang: höchstens 200 Zeichen.',
    );
    expect(messageFor(findLp, 'params', { code: 'A-01\u0000-01' })).toBe(
      'Lagerplatz enthält ein unzulässiges Steuerzeichen. Bitte erneut scannen.',
    );
    expect(messageFor(findLp, 'params', { code: '   ' })).toBe('Lagerplatz fehlt.');
    expect(messageFor(findLp, 'params', {})).toBe('Lagerplatz fehlt.');
    // The GS1 group separator is no refused control character.
    expect(findLp.params.safeParse({ code: '0104012345678901\u001d10ABC' }).success).toBe(true);
  });

  it('refuses NUL in every text, other control characters as the field allows them', () => {
    const login = (username: string, password: string) =>
      loginPassword.body.safeParse({ username, password }, { reportInput: true });
    const refused = (username: string, password: string) => {
      const parsed = login(username, password);
      return parsed.success ? null : inputErrorMessage(loginPassword.name, parsed.error.issues[0]);
    };
    // A typed name: every control character; no 'scan again' in the message.
    expect(refused('de\u0000mo', 'geheim')).toBe('Name enthält ein unzulässiges Steuerzeichen.');
    expect(refused('de\u001dmo', 'geheim')).toBe('Name enthält ein unzulässiges Steuerzeichen.');
    // A password: only NUL (it is hashed, never stored or shown).
    expect(refused('demo', 'geh\u0000eim')).toBe('Passwort enthält ein unzulässiges Steuerzeichen.');
    expect(login('demo', 'geh\teim\u001b').success).toBe(true);
    // A scanned card: all but the GS1 group separator, and never trimmed.
    expect(loginCard.body.safeParse({ stechuhrdevice: 'KARTE\u001d01' }).success).toBe(true);
    expect(loginCard.body.safeParse({ stechuhrdevice: 'KARTE\u000001' }).success).toBe(false);
    expect(loginCard.body.parse({ stechuhrdevice: ' KARTE ' }).stechuhrdevice).toBe(' KARTE ');
  });

  it('says what is wrong with a number: not a number, not whole, out of range, off the step', () => {
    const book = (amount: unknown) => messageFor(bookInventur, 'body', { lp: 1, article: 1, amount });
    expect(book('5')).toBe('Menge muss eine Zahl sein.');
    expect(book(0.5)).toBe('Menge muss eine ganze Zahl sein.');
    expect(book(-1)).toBe('Menge muss mindestens 0 sein.');
    expect(book(1e12)).toBe('Menge darf höchstens 1.000.000 sein.');
    expect(book(undefined)).toBe('Menge fehlt.');
    const transporter = { kennzeichen: 'B-XY 1', container: 'WB1', plombe: 'P1' };
    expect(messageFor(captureTransporter, 'body', { ...transporter, value: 7 })).toBe(
      'Füllstand geht nur in Schritten von 5.',
    );
  });

  it('uses the spec’s own text for a batch too long, and names nested fields with their parents', () => {
    expect(messageFor(captureBatch, 'body', { batch: '1'.repeat(300) })).toBe(
      'Achtung - Batch hat nur sechs Ziffern!',
    );
    expect(
      messageFor(savePackageRecording, 'body', {
        id: 1,
        belegnr: 'LS1',
        user_id: 1,
        kartonagen: [{ packageid: 1, amount: -1 }],
      }),
    ).toBe('Kartonagen – Menge muss mindestens 0 sein.');
    expect(messageFor(savePackageRecording, 'params', { id: 'abc' })).toBe(
      'Lieferschein ist keine gültige Nummer.',
    );
    expect(
      messageFor(bookWmsRetoure, 'body', {
        article: 1,
        lagerplatz: 1,
        amount: 1,
        charge: null,
        mhd: '2027-02-30',
      }),
    ).toBe('MHD ist kein gültiges Datum.');
  });

  it('never names a field it has no label for, and says no more than that a whole body is wrong', () => {
    expect(
      inputErrorMessage('findLp', { code: 'custom', path: ['nochNichtBenannt'], message: '', input: 1 }),
    ).toBe('Ungültige Anfrage.');
    expect(messageFor(bookInventur, 'body', undefined)).toBe('Ungültige Anfrage.');
    expect(inputErrorMessage('findLp', undefined)).toBe('Ungültige Anfrage.');
  });
});
