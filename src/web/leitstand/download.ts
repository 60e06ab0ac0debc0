import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { onUnauthorized } from '../api/api.ts';

/**
 * Hands a fetched file to the browser as a download, named as the server's Content-Disposition says (else
 * `fallbackName`), and answers that name. A refusal throws the server's German message; no answer at all
 * (the network) 'Konnte nicht geladen werden.'; a login that is gone (401) gets the app's one answer to it
 * (`onUnauthorized`: the login screen), as every other call of the Leitstand. Why fetched at all: the API
 * takes the login only as a header, never in the address (where it would end up in logs and the history),
 * so a plain link cannot carry it.
 */
export async function saveDownload(fetching: Promise<Response>, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetching;
  } catch {
    throw new Error(leitstandTexts.loadFailed);
  }
  if (response.status === 401) {
    onUnauthorized();
    throw new Error(leitstandTexts.loadFailed);
  }
  if (!response.ok) {
    const refusal = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new Error(typeof refusal?.message === 'string' ? refusal.message : leitstandTexts.loadFailed);
  }
  const file = await response.blob();
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the memory goes back.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
