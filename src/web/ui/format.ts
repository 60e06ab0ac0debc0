/**
 * How the app writes dates, times and numbers: in the locale of the language shown (German style for German,
 * issue 43), in the browser's time zone, the same on the handheld's screens and in the Leitstand. One function
 * per way a reader sees a moment; a moment that is not there reads as a dash. What the outbox list needs is in
 * `format-core.ts`, so the rest stays out of its download; it is exported here too.
 */

import { locale } from './format-core.ts';

export { locale, shortDateAndTime } from './format-core.ts';

/** A moment: the server's ISO time, or the device's own (ms since 1970, e.g. when a scan was kept). */
type Moment = string | number;

const DASH = '–';

const inLocale = (moment: Moment, parts: Intl.DateTimeFormatOptions) =>
  new Date(moment).toLocaleString(locale(), parts);

const HOUR_MINUTE = { hour: '2-digit', minute: '2-digit' } as const;
const DAY_MONTH = { day: '2-digit', month: '2-digit' } as const;

/** The time of day: 14:05 (a customs parcel's scan, today's). */
export function clockTime(moment: Moment): string {
  return inLocale(moment, HOUR_MINUTE);
}

/** The time of day to the second: 14:05:02 (an Inventur booking of this shift). */
export function clockTimeSeconds(moment: Moment): string {
  return inLocale(moment, { ...HOUR_MINUTE, second: '2-digit' });
}

/** Today's moment by its time, an earlier one with its day: 14:05, or 23.11., 14:05 (the desk's overview). */
export function sinceToday(moment: Moment | null): string {
  if (moment === null || moment === '') return DASH;
  const sameDay = new Date(moment).toDateString() === new Date().toDateString();
  return inLocale(moment, sameDay ? HOUR_MINUTE : { ...DAY_MONTH, ...HOUR_MINUTE });
}

/** Day and time without the year: 23.11., 14:05 (what lies a few days back: Klärfälle, carts, receipts). */
export function dayAndTime(moment: Moment | null): string {
  if (moment === null || moment === '') return DASH;
  return inLocale(moment, { ...DAY_MONTH, ...HOUR_MINUTE });
}

/** Date and time: 24.11.2026, 14:05 (the admin pages: logins, tokens, backups); `none` for no moment. */
export function dateAndTime(moment: Moment | null, none = DASH): string {
  if (moment === null || moment === '') return none;
  return inLocale(moment, { ...DAY_MONTH, year: 'numeric', ...HOUR_MINUTE });
}

/** A booking's time in full: 24.11.2026 10:15:02 (the Bewegungsjournal). */
export function bookingTime(moment: Moment): string {
  const at = new Date(moment);
  const date = at.toLocaleDateString(locale(), { ...DAY_MONTH, year: 'numeric' });
  const time = at.toLocaleTimeString(locale(), { ...HOUR_MINUTE, second: '2-digit' });
  return `${date} ${time}`;
}

/** A whole hour of the day: 07:00. */
export function hourOfDay(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/**
 * A calendar date of the contract (2032-01-31) as German readers write it: 31.01.2032; none as a dash. In
 * German whatever the language: a field the worker edits (an MHD) reads it back in this form (mhd.ts). To
 * show a date, `calendarDate`.
 */
export function germanDate(day: string | null): string {
  if (!day) return DASH;
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}`;
}

/** A calendar date of the contract (2032-01-31) to read, in the locale: 31.01.2032 in German; none as a dash. */
export function calendarDate(day: string | null): string {
  if (!day) return DASH;
  // The day itself, not a moment: read in UTC, so no time zone moves it to the day before or after.
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(locale(), {
    ...DAY_MONTH,
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A number as German readers write it: 1.000 (the Leitstand's, which stays German, decision 35). */
export function germanNumber(n: number): string {
  return n.toLocaleString('de-DE');
}
