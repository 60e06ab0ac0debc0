import { ausweisDatei, type CodeKind, type LabelKind, labelDownloads } from '../../contract/etiketten.ts';
import { readSession } from '../api/session.ts';
import { saveDownload } from './download.ts';

/** What to print: the records by code, a location range, or (carts) all. */
export interface LabelSelection {
  kind: LabelKind;
  codes?: string[];
  from?: string;
  to?: string;
  pfeil?: 'hoch' | 'runter';
}

interface FileOptions {
  format: 'pdf' | 'zpl';
  groesse: string;
  dpi: 203 | 300;
}

/**
 * Downloads labels as a file. The API takes the login only as a header (never in the address, where it
 * would end up in logs and the history), so the file is fetched with the token and handed to the browser
 * as a download; a badge's card texts go in a POST body. Throws the server's German refusal. Answers the
 * file name.
 */
export async function downloadLabels(selection: LabelSelection, options: FileOptions): Promise<string> {
  const base = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
  const headers = { authorization: `Bearer ${readSession()?.token ?? ''}` };
  let fetching: Promise<Response>;
  if (selection.kind === 'ausweis') {
    fetching = fetch(`${base}${ausweisDatei.path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        karten: selection.codes ?? [],
        format: options.format,
        groesse: options.groesse,
        ...(options.format === 'zpl' ? { dpi: options.dpi } : {}),
      }),
    });
  } else {
    const search = new URLSearchParams();
    for (const code of selection.codes ?? []) search.append('codes', code);
    if (selection.from) search.set('from', selection.from);
    if (selection.to) search.set('to', selection.to);
    if (selection.pfeil) search.set('pfeil', selection.pfeil);
    search.set('groesse', options.groesse);
    if (options.format === 'zpl') search.set('dpi', String(options.dpi));
    const path = labelDownloads[selection.kind as CodeKind][options.format].path;
    fetching = fetch(`${base}${path}?${search}`, { headers });
  }
  return saveDownload(fetching, `etiketten.${options.format}`);
}
