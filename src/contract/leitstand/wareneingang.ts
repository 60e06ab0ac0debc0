import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

/**
 * Wareneingänge in the Leitstand (issue 22): the open receipts with what has arrived so far, and those
 * closed lately with their short and over deliveries — what the shift lead takes up with the supplier.
 */

const de = (n: number) => n.toLocaleString('de-DE');

/** The page's texts (not in texts.ts: the handheld's first download does not need them). */
export const wareneingangLeitstandTexts = {
  title: 'Wareneingang',
  open: 'Offene Wareneingänge',
  noneOpen: 'Kein Wareneingang ist offen.',
  closed: (days: number) => `Abgeschlossen in den letzten ${days} Tagen`,
  noneClosed: 'In diesem Zeitraum wurde kein Wareneingang abgeschlossen.',
  receipt: 'Wareneingang',
  supplier: 'Lieferant',
  createdAt: 'Angelegt',
  closedAt: 'Abgeschlossen',
  closedBy: 'von',
  article: 'Artikel',
  charge: 'Charge',
  mhd: 'MHD',
  expected: 'Erwartet',
  received: 'Erhalten',
  difference: 'Differenz',
  /** A line's difference as the desk reads it. */
  differenceText: (difference: number) =>
    difference === 0
      ? 'wie erwartet'
      : difference < 0
        ? `${de(-difference)} fehlen`
        : `${de(difference)} zu viel`,
  summary: (short: number, over: number) =>
    short === 0 && over === 0
      ? 'Keine Differenzen.'
      : [short > 0 ? `${de(short)} fehlen` : '', over > 0 ? `${de(over)} zu viel` : '']
          .filter(Boolean)
          .join(', '),
  linesHeading: 'Positionen',
  lines: (count: number) => (count === 1 ? '1 Position' : `${count} Positionen`),
  unknownUser: 'unbekannt',
} as const;

/** Closed receipts of this many days are listed, at most this many. */
export const WARENEINGANG_CLOSED_DAYS = 30;
export const WARENEINGANG_CLOSED_MAX = 200;

const iso = z.string().describe('ISO 8601');

export const wareneingangLine = z.object({
  nummer: z.string(),
  name: z.string(),
  charge: z.string().nullable(),
  mhd: z.string().nullable(),
  erwartet: z.number().int(),
  erhalten: z.number().int(),
  /** Received minus expected: below 0 short, above 0 over. */
  differenz: z.number().int(),
});

export const wareneingangRow = z.object({
  nummer: z.string(),
  lieferant: z.string(),
  status: z.enum(['offen', 'abgeschlossen']),
  angelegtAm: iso,
  abgeschlossenAm: iso.nullable(),
  abgeschlossenVon: z.string().nullable(),
  /** Sum of what is short over all lines, and of what came over. */
  fehlmenge: z.number().int(),
  mehrmenge: z.number().int(),
  positionen: z.array(wareneingangLine),
});
export type WareneingangRow = z.infer<typeof wareneingangRow>;

/** Open receipts (oldest first), then those closed in the last 30 days (latest first, at most 200). */
export const wareneingangList = endpoint({
  name: 'wareneingangList',
  method: 'GET',
  path: '/api/leitstand/wareneingang',
  role: 'schichtleitung',
  response: z.object({
    data: z.object({
      offen: z.array(wareneingangRow),
      abgeschlossen: z.array(wareneingangRow),
      tage: z.number().int(),
    }),
  }),
});
