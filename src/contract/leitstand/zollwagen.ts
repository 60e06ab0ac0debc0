import { z } from 'zod';
import { endpoint, idParam } from '../endpoint.ts';

/**
 * Customs carts in the Leitstand (issue 20.4): the open ones and those closed lately, each with the parcels
 * of its current (or last) round, and 'Abschließen' for a cart left open on the floor — the same closing as
 * the handheld's Zollpaket screen (src/server/repositories/cart.repository.ts).
 */

/** The Zollwagen page's and calls' texts (not in texts.ts: the handheld's first download does not need them). */
export const zollwagenTexts = {
  title: 'Zollwagen',
  open: 'Offene Wagen',
  noneOpen: 'Kein Wagen ist offen.',
  closed: (days: number) =>
    days === 1 ? 'Abgeschlossen seit gestern' : `Abgeschlossen in den letzten ${days} Tagen`,
  noneClosed: 'In diesem Zeitraum wurde kein Wagen abgeschlossen.',
  period: 'Zeitraum',
  days: (days: number) => (days === 1 ? '1 Tag' : `${days} Tage`),
  cart: 'Wagen',
  parcels: 'Pakete',
  openedBy: 'Geöffnet von',
  openedAt: 'Geöffnet',
  age: 'Offen seit',
  closedAt: 'Abgeschlossen',
  actions: 'Aktionen',
  /** How long a cart has been open, as a shift lead says it. */
  ageText: (minutes: number) => {
    if (minutes < 60) return `${minutes} Min.`;
    const hours = Math.floor(minutes / 60);
    if (hours < 24) return `${hours} Std. ${minutes % 60} Min.`;
    const days = Math.floor(hours / 24);
    return `${days} ${days === 1 ? 'Tag' : 'Tage'} ${hours % 24} Std.`;
  },
  showParcels: (count: number, cart: string) => `${count === 1 ? '1 Paket' : `${count} Pakete`} auf ${cart}`,
  parcelNote: 'Lieferschein',
  parcelBy: 'Erfasst von',
  parcelAt: 'Zeit',
  noParcels: 'Noch keine Pakete.',
  unknownUser: 'unbekannt',
  close: 'Abschließen',
  closeLabel: (cart: string) => `${cart} abschließen`,
  confirmTitle: (cart: string) => `Wagen ${cart} abschließen?`,
  confirmBody:
    'Der Wagen wird abgeschlossen wie mit „Abschließen“ am Handscanner: keine Pakete mehr darauf; der nächste Scan seiner Wagennummer öffnet ihn wieder.',
  confirm: 'Abschließen',
  cancel: 'Abbrechen',
  /** After closing, in the page's status line and as the call's message. */
  closedMessage: (cart: string) => `Wagen ${cart} abgeschlossen.`,
  /** 404: no cart with this id. */
  notFound: (id: number) => `Zollwagen ${id} gibt es nicht.`,
} as const;

/** How long closed carts stay in the list by default, the choices, and the most. */
export const ZOLLWAGEN_DAYS = { standard: 7, choices: [1, 7, 30, 90], max: 90 } as const;

/** At most this many closed carts are listed (the latest closed). */
export const ZOLLWAGEN_CLOSED_MAX = 200;

const iso = z.string().describe('ISO 8601');

export const zollwagenParcel = z.object({
  lieferschein: z.string(),
  /** Who put it on the cart. */
  von: z.string(),
  am: iso,
});

export const zollwagenRow = z.object({
  id: z.number().int(),
  wagennummer: z.string(),
  bezeichnung: z.string(),
  status: z.enum(['offen', 'abgeschlossen']),
  /** Who opened it by scanning its number; null for a cart never opened. */
  geoeffnetVon: z.string().nullable(),
  geoeffnetAm: iso.nullable(),
  abgeschlossenAm: iso.nullable(),
  /** The parcels since it was last opened, newest first. */
  pakete: z.array(zollwagenParcel),
});
export type ZollwagenRow = z.infer<typeof zollwagenRow>;

/** Open carts (longest open first), then carts closed in the last `tage` days (latest first). */
export const zollwagenList = endpoint({
  name: 'zollwagenList',
  method: 'GET',
  path: '/api/leitstand/zollwagen',
  role: 'schichtleitung',
  query: z.object({
    tage: z
      .string()
      .regex(/^[1-9][0-9]?$/)
      .transform(Number)
      .pipe(z.number().int().max(ZOLLWAGEN_DAYS.max))
      .optional()
      .describe(
        `Closed carts of this many days (1–${ZOLLWAGEN_DAYS.max}, default ${ZOLLWAGEN_DAYS.standard})`,
      ),
  }),
  response: z.object({
    data: z.object({
      offen: z.array(zollwagenRow),
      abgeschlossen: z.array(zollwagenRow),
      tage: z.number().int(),
    }),
  }),
});

/** Closes an open cart, as 'Abschließen' on the handheld does; a cart closed already is refused (409). */
export const zollwagenAbschliessen = endpoint({
  name: 'zollwagenAbschliessen',
  method: 'PUT',
  path: '/api/leitstand/zollwagen/:id/abschliessen',
  role: 'schichtleitung',
  params: z.object({ id: idParam }),
  body: z.object({}),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
