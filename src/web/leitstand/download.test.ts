// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

const unauthorized = vi.hoisted(() => vi.fn());
vi.mock('../api/api.ts', () => ({ onUnauthorized: unauthorized }));

const { saveDownload } = await import('./download.ts');

/**
 * A file the Leitstand downloads with its login (the journal's CSV, labels): what the lead is told when it
 * does not come (download.ts).
 */
describe('a Leitstand download', () => {
  afterEach(() => unauthorized.mockClear());

  it('says in German that it could not be loaded when no answer came (the network), not the browser’s English', async () => {
    await expect(
      saveDownload(Promise.reject(new TypeError('Failed to fetch')), 'journal.csv'),
    ).rejects.toThrow('Konnte nicht geladen werden.');
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('sends a login that is gone (401) to the app’s one answer to it, the login screen', async () => {
    const gone = new Response(JSON.stringify({ success: false, message: 'Nicht angemeldet' }), {
      status: 401,
    });
    await expect(saveDownload(Promise.resolve(gone), 'journal.csv')).rejects.toThrow();
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('shows the server’s German refusal', async () => {
    const refused = new Response(JSON.stringify({ success: false, message: 'Zu viele Etiketten.' }), {
      status: 400,
    });
    await expect(saveDownload(Promise.resolve(refused), 'etiketten.pdf')).rejects.toThrow(
      'Zu viele Etiketten.',
    );
    expect(unauthorized).not.toHaveBeenCalled();
  });
});
