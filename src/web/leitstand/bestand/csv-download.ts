import { bestandTexts, journalCsv } from '../../../contract/leitstand/bestand.ts';
import { leitstandTexts } from '../../../contract/leitstand/uebersicht.ts';
import { buildPath } from '../../../contract/path.ts';
import { readSession } from '../../api/session.ts';

/**
 * Downloads the filtered journal as CSV. The API takes the login only as a header (never in the address,
 * where it would end up in logs and the history), so a plain link cannot carry it: the file is fetched with
 * the token and handed to the browser as a download. Throws the server's German refusal.
 */
export async function downloadJournalCsv(filters: Record<string, string>): Promise<void> {
  const base = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
  const search = new URLSearchParams(filters).toString();
  const response = await fetch(`${base}${buildPath(journalCsv.path, {})}${search ? `?${search}` : ''}`, {
    headers: { accept: 'text/csv', authorization: `Bearer ${readSession()?.token ?? ''}` },
  });
  if (!response.ok) {
    const refusal = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new Error(typeof refusal?.message === 'string' ? refusal.message : leitstandTexts.loadFailed);
  }
  const file = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    bestandTexts.journal.csvFile;
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the memory goes back.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
