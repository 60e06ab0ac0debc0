/**
 * The formats the first download needs (the outbox list opens in a dead zone, so it is not loaded on demand):
 * kept apart from `format.ts`, which exports them too, so the formats of the other screens and of the
 * Leitstand do not count against the first download's budget (test/tools/bundle-budget.test.ts).
 */

const shortDateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'short', timeStyle: 'medium' });

/** Short date, time to the second: 28.11.26, 08:18:17 (when a scan waiting on this device was made, in ms). */
export function shortDateAndTime(moment: number): string {
  return shortDateTime.format(new Date(moment));
}
