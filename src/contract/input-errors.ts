import type { z } from 'zod';
import { CONTROL_CHARACTER } from './endpoint.ts';
import { type FieldLabel, fieldLabels, texts } from './texts.ts';

type Issue = z.core.$ZodIssue;

/** The label of one key of a call's params or body: the call's own, else the key's usual one. */
export function fieldLabel(endpointName: string, key: string): FieldLabel | undefined {
  const own: Readonly<Record<string, FieldLabel>> | undefined =
    fieldLabels.byEndpoint[endpointName as keyof typeof fieldLabels.byEndpoint];
  const labels: Readonly<Record<string, FieldLabel>> = fieldLabels.byKey;
  return own?.[key] ?? labels[key];
}

const labelText = (label: FieldLabel) => (typeof label === 'string' ? label : label.label);

/**
 * The German message for input a call refused, naming the field as the screen does: 'Lagerplatz ist zu lang:
 * höchstens 200 Zeichen.' `issue` is zod's first issue, parsed with `reportInput` (a missing field has no input).
 * A nested field names its parents too ('Kartonagen – Menge …'). Without a label (a test keeps every field
 * labelled) or a field at all, the general 'Ungültige Anfrage.' — never the API's English key.
 */
export function inputErrorMessage(endpointName: string, issue: Issue | undefined): string {
  if (!issue) return texts.errors.badRequest;
  const labels: FieldLabel[] = [];
  for (const key of issue.path) {
    if (typeof key !== 'string') continue; // an array index
    const label = fieldLabel(endpointName, key);
    if (!label) return texts.errors.badRequest;
    labels.push(label);
  }
  const last = labels.at(-1);
  if (!last) return texts.errors.badRequest;
  const field = labels.map(labelText).join(' – ');
  const input = texts.errors.input;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return input.missing(field);
      if (issue.expected === 'number') return input.notANumber(field);
      if (issue.expected === 'int')
        return typeof issue.input === 'number' ? input.notAWholeNumber(field) : input.notANumber(field);
      return input.invalid(field);
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? input.missing(field)
          : input.tooShort(field, Number(issue.minimum));
      if (issue.origin === 'number') return input.tooSmall(field, Number(issue.minimum));
      return input.invalid(field);
    case 'too_big':
      if (issue.origin === 'string')
        return typeof last === 'string' ? input.tooLong(field, Number(issue.maximum)) : last.tooLong;
      if (issue.origin === 'number') return input.tooBig(field, Number(issue.maximum));
      if (issue.origin === 'array') return input.tooMany(field, Number(issue.maximum));
      return input.invalid(field);
    case 'not_multiple_of':
      return input.step(field, Number(issue.divisor));
    case 'invalid_format':
      if (issue.format === 'date') return input.notADate(field);
      if (issue.format === 'regex') return input.notAnId(field);
      return input.invalid(field);
    case 'custom':
      if (issue.params?.reason !== CONTROL_CHARACTER) return input.invalid(field);
      return issue.params.controls === 'scan'
        ? input.controlCharacter(field)
        : input.controlCharacterTyped(field);
    default:
      return input.invalid(field);
  }
}
