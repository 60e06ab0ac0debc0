import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

/** The Leitstand's German texts for the shell and the Übersicht (kept out of texts.ts: not in the handheld's first download). */
export const leitstandTexts = {
  title: 'Leitstand',
  nav: 'Bereiche des Leitstands',
  backToHandheld: 'Zum Hauptmenü',
  notAllowed: 'Der Leitstand ist der Schichtleitung vorbehalten.',
  pageNotAllowed: 'Diese Seite ist der IT-Administration vorbehalten.',
  live: 'Live',
  reconnecting: 'Verbindung unterbrochen – verbinde neu …',
  /** 429: one login holds LIVE_STREAMS_PER_LOGIN live streams already (each Leitstand tab holds one). */
  tooManyStreams: (max: number) =>
    `Diese Anmeldung hat schon ${max} Leitstand-Fenster mit Live-Anzeige offen. Bitte ein anderes schließen.`,
  loadFailed: 'Konnte nicht geladen werden.',
  /** A page that failed while it was drawn (a defect): the navigation stays, the page can be drawn again. */
  pageFailed: 'Diese Seite konnte nicht angezeigt werden.',
  retry: 'Erneut laden',
  uebersicht: {
    title: 'Übersicht',
    scansToday: 'Scans heute je Bildschirm',
    scansPerHour: 'Scans heute je Stunde',
    screen: 'Bildschirm',
    scans: 'Scans',
    refused: 'Abgelehnt',
    hour: 'Stunde',
    lastScans: 'Zuletzt gescannt',
    user: 'Mitarbeiter',
    at: 'Zeit',
    openKlaerfaelle: 'Offene Klärfälle',
    openCarts: 'Offene Zollwagen',
    cart: 'Wagen',
    parcels: 'Pakete',
    openSince: 'Offen seit',
    inPacking: 'Lieferscheine im Packen',
    note: 'Lieferschein',
    progress: 'Gepackt',
    failedLogins: 'Fehlgeschlagene Anmeldungen (letzte Stunde)',
    none: 'Keine.',
    noScans: 'Heute noch keine Scans.',
  },
} as const;

/** Announcements of writes, as server-sent events: `event: change`, `data: {"topics":[call names]}`. */
export const leitstandLive = endpoint({
  name: 'leitstandLive',
  method: 'GET',
  path: '/api/leitstand/live',
  role: 'schichtleitung',
  response: z.string().describe('text/event-stream'),
});

const iso = z.string();

export const uebersicht = z.object({
  /** Today (the site's TIME_ZONE): writes per screen, refusals among them. */
  proBildschirm: z.array(
    z.object({ bildschirm: z.string(), scans: z.number().int(), abgelehnt: z.number().int() }),
  ),
  proStunde: z.array(z.object({ stunde: z.number().int().min(0).max(23), scans: z.number().int() })),
  /** Each worker's last write today, newest first. */
  zuletzt: z.array(z.object({ mitarbeiter: z.string(), bildschirm: z.string(), at: iso })),
  offeneKlaerfaelle: z.array(z.object({ belegnr: z.string(), at: iso.nullable() })),
  offeneZollwagen: z.array(
    z.object({
      wagennummer: z.string(),
      bezeichnung: z.string(),
      pakete: z.number().int(),
      offenSeit: iso.nullable(),
    }),
  ),
  /** Delivery notes with something scanned but not complete. */
  imPacken: z.array(z.object({ belegnr: z.string(), gepackt: z.number().int(), gesamt: z.number().int() })),
  fehlgeschlageneAnmeldungen: z.number().int(),
});

export const leitstandUebersicht = endpoint({
  name: 'leitstandUebersicht',
  method: 'GET',
  path: '/api/leitstand/uebersicht',
  role: 'schichtleitung',
  response: z.object({ success: z.literal(true), data: uebersicht }),
});
