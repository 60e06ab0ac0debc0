/** A date of the contract (2032-01-31) as German readers write it: 31.01.2032; null as a dash. */
export function germanDate(day: string | null): string {
  if (!day) return '–';
  const [year, month, date] = day.split('-');
  return `${date}.${month}.${year}`;
}

/** A booking time (UTC from the server) in the browser's time zone: 24.11.2026 10:15:02. */
export function germanTime(iso: string): string {
  const at = new Date(iso);
  const date = at.toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' });
  const time = at.toLocaleTimeString('de-DE', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `${date} ${time}`;
}

/** An amount as German readers write it: 1.000. */
export const germanNumber = (n: number) => n.toLocaleString('de-DE');
