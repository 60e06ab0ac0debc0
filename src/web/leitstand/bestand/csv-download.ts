import { bestandTexts, journalCsv } from '../../../contract/leitstand/bestand.ts';
import { buildPath } from '../../../contract/path.ts';
import { readSession } from '../../api/session.ts';
import { saveDownload } from '../download.ts';

/**
 * Downloads the filtered journal as CSV. The API takes the login only as a header (never in the address,
 * where it would end up in logs and the history), so a plain link cannot carry it: the file is fetched with
 * the token and handed to the browser as a download. Throws the server's German refusal.
 */
export async function downloadJournalCsv(filters: Record<string, string>): Promise<void> {
  const base = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
  const search = new URLSearchParams(filters).toString();
  const fetching = fetch(`${base}${buildPath(journalCsv.path, {})}${search ? `?${search}` : ''}`, {
    headers: { accept: 'text/csv', authorization: `Bearer ${readSession()?.token ?? ''}` },
  });
  await saveDownload(fetching, bestandTexts.journal.csvFile);
}
