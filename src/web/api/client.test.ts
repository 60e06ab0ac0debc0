// Over 400 lines on purpose: each rule of SPEC §7's client (retries, the one budget, keys, 401, reading an
// answer, the overload wait) is scripted against the one real HTTP server set up below.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginPassword } from '../../contract/auth.ts';
import { errorBody } from '../../contract/endpoint.ts';
import { setLanguageSource } from '../../contract/i18n/current.ts';
import { bookInventur } from '../../contract/inventur.ts';
import { findArticle } from '../../contract/lookup.ts';
import { scanPackageItem } from '../../contract/paketinhalt.ts';
import { ApiError, type ClientOptions, createClient, NetworkError, resetCsrfWarning } from './client.ts';
import { messageOf } from './message.ts';

/** A real local HTTP server whose answers each test scripts, recording every request it gets. */
type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
let seen: Seen[] = [];
let script: (req: Seen, res: http.ServerResponse, index: number) => void = () => {};
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      script(entry, res, seen.length - 1);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
afterEach(() => {
  seen = [];
  vi.unstubAllGlobals();
});

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const found = { found: true, count: 1, id: 7, nummer: '100001', name: 'Kugelschreiber blau' };

function client(overrides: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl,
    timeoutMs: 5000,
    retries: 4,
    getToken: () => 'geheim-123',
    onUnauthorized: vi.fn(),
    withCsrf: false,
    ...overrides,
  });
}

describe('the API client', () => {
  it('sends the stored key as Bearer and as Access-Token', async () => {
    script = (_req, res) => json(res, 200, found);
    expect(await client().call(findArticle, { params: { number: '100001' } })).toEqual(found);
    expect(seen[0]?.headers.authorization).toBe('Bearer geheim-123');
    expect(seen[0]?.headers['access-token']).toBe('geheim-123');
  });

  it('says the language in use on every call (X-Language), as it is at the call', async () => {
    script = (_req, res) => json(res, 200, found);
    await client().call(findArticle, { params: { number: '100001' } });
    setLanguageSource(() => 'pl');
    try {
      await client().call(findArticle, { params: { number: '100001' } });
    } finally {
      setLanguageSource(() => 'de');
    }
    expect(seen.map((s) => s.headers['x-language'])).toEqual(['de', 'pl']);
  });

  it('URL-encodes scanned text in the path', async () => {
    script = (_req, res) => json(res, 200, found);
    await client().call(findArticle, { params: { number: 'AB/12 Ä?' } });
    expect(seen[0]?.url).toBe('/api/inventur/findarticle/AB%2F12%20%C3%84%3F');
  });

  it('retries 5xx answers without delay and succeeds on the fourth try', async () => {
    script = (_req, res, i) =>
      i < 3 ? json(res, 500, { success: false, message: 'x' }) : json(res, 200, found);
    expect(await client().call(findArticle, { params: { number: '1' } })).toEqual(found);
    expect(seen).toHaveLength(4);
  });

  it('gives up after 4 retries (5 requests) with the 500 message', async () => {
    script = (_req, res) => json(res, 500, {});
    const error = await client()
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(5);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Systemfehler (Fehler 500) - Bitte an die IT wenden.');
  });

  it('shows the spec text for a 500 whatever its body says, never the server text', async () => {
    script = (_req, res) =>
      json(res, 500, { success: false, message: 'relation "stock" does not exist (Fehler im Server)' });
    const error = await client({ retries: 0 })
      .call(bookInventur, { body: { lp: 1, article: 2, amount: 3 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).message).toBe('Systemfehler (Fehler 500) - Bitte an die IT wenden.');
  });

  it('retries a 503 without Retry-After (a proxy’s, not our overload answer) like any 5xx, and shows the spec text (README)', async () => {
    script = (_req, res) =>
      json(res, 503, {
        success: false,
        message: 'Der Server ist gerade nicht bereit. Bitte gleich erneut versuchen.',
      });
    const error = await client()
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(5);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).message).toBe('Systemfehler (Fehler 500) - Bitte an die IT wenden.');
  });

  it('retries a dropped connection', async () => {
    script = (_req, res, i) => (i < 2 ? res.socket?.destroy() : json(res, 200, found));
    expect(await client().call(findArticle, { params: { number: '1' } })).toEqual(found);
    expect(seen).toHaveLength(3);
  });

  it('does not retry a 4xx answer and shows the server message', async () => {
    script = (_req, res) =>
      json(res, 404, { success: false, message: 'Lieferschein X kann nicht gefunden werden.' });
    const error = await client()
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('Lieferschein X kann nicht gefunden werden.');
  });

  it('keeps a refusal’s body for the screen: the packing station’s other delivery note', async () => {
    const refusal = {
      success: false,
      message: 'Lieferschein LS100002 gescannt – zu diesem Lieferschein wechseln?',
      lieferschein: 'LS100002',
    };
    script = (_req, res) => json(res, 404, refusal);
    const error = await client()
      .call(scanPackageItem, {
        params: { itemNr: 'LS100002' },
        body: {
          id: 1,
          itemNr: 'LS100002',
          belegnr: 'LS100001',
          eu: 1,
          user_id: 1,
          paketinhalt: [],
          versandart: 'DHL037',
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(refusal.message);
    expect((error as ApiError).details?.lieferschein).toBe('LS100002');
    expect((error as ApiError).details).toEqual(refusal);
  });

  it('reads every field the contract declares on an error body, and nothing from a 5xx or a foreign body', async () => {
    const extras = Object.keys(errorBody.shape).filter((key) => key !== 'success' && key !== 'message');
    // Each a text, but `params`: the message's arguments, a list (issue 43).
    const declared = Object.fromEntries(
      extras.map((key) => [key, key === 'params' ? ['Wert von params'] : `Wert von ${key}`]),
    );
    const refusal = { success: false, message: 'abgelehnt', ...declared };
    expect(errorBody.parse(refusal)).toEqual(refusal);
    script = (_req, res) => json(res, 404, refusal);
    const error = (await client()
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.details).toEqual(refusal);

    script = (_req, res) => json(res, 500, refusal);
    const system = (await client({ retries: 0 })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(system.details).toBeNull();

    script = (_req, res) => {
      res.writeHead(413, { 'content-type': 'text/html' });
      res.end('<html><body>413 Request Entity Too Large</body></html>');
    };
    const foreign = (await client()
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(foreign.details).toBeNull();
    expect(foreign.message).toBe('Ungültige Anfrage.');
  });

  it('keeps one time budget for all tries: a hanging server fails after it, not five times it', async () => {
    script = () => {}; // never answers
    const started = Date.now();
    const error = await client({ timeoutMs: 400 })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Netzwerkfehler. Bitte erneut versuchen.');
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(1500);
  });

  it('without a network fails at once, sending nothing; reports which calls got an answer', async () => {
    const reports: boolean[] = [];
    let offline = true;
    const connection = { offline: () => offline, report: (answered: boolean) => reports.push(answered) };
    const error = await client({ connection })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(0);

    offline = false;
    script = () => {}; // a dead spot: the browser says online, nothing answers
    await client({ connection, timeoutMs: 200 })
      .call(findArticle, { params: { number: '1' } })
      .catch(() => {});
    script = (_req, res) => json(res, 404, { success: false, message: 'nicht gefunden' });
    await client({ connection })
      .call(findArticle, { params: { number: '1' } })
      .catch(() => {});
    expect(reports).toEqual([false, true]);
  });

  it('sends one idempotency key on every retry of an action, and a new one for the next action', async () => {
    script = (_req, res, i) => (i === 0 || i === 2 ? json(res, 503, {}) : json(res, 200, { success: true }));
    const api = client();
    await api.call(bookInventur, { body: { lp: 1, article: 2, amount: 3 } });
    await api.call(bookInventur, { body: { lp: 1, article: 2, amount: 3 } });
    const keys = seen.map((s) => s.headers['x-idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ lp: 1, article: 2, amount: 3 });
  });

  it('uses the key the caller keeps for an action', async () => {
    script = (_req, res) => json(res, 200, { success: true });
    await client().call(bookInventur, {
      body: { lp: 1, article: 2, amount: 3 },
      idempotencyKey: 'e3b0c442-98fc-4c14-9afb-f4c8996fb924',
    });
    expect(seen[0]?.headers['x-idempotency-key']).toBe('e3b0c442-98fc-4c14-9afb-f4c8996fb924');
  });

  it('hands a 401 to the global handler, but keeps a scan and says it was not saved', async () => {
    script = (_req, res) => json(res, 401, { success: false, message: 'x' });
    const onUnauthorized = vi.fn();
    const api = client({ onUnauthorized });
    await expect(api.call(findArticle, { params: { number: '1' } })).rejects.toThrow(
      'Kein Login. Seite wird neu geladen.',
    );
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(
      api.call(bookInventur, { body: { lp: 1, article: 2, amount: 3 }, on401: 'scan' }),
    ).rejects.toThrow('Scan wurde nicht gespeichert - melde dich neu an!');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('gives every screen the German message of what a call threw, never words of its own', () => {
    expect(messageOf(new ApiError(404, 'Lagerplatz "X" nicht gefunden!'))).toBe(
      'Lagerplatz "X" nicht gefunden!',
    );
    expect(messageOf(new NetworkError())).toBe('Netzwerkfehler. Bitte erneut versuchen.');
    expect(messageOf('failed to fetch')).toBe('Netzwerkfehler. Bitte erneut versuchen.');
  });

  it('the second client sends X-Requested-With and the CSRF token of the page', async () => {
    script = (_req, res) =>
      json(res, 200, { success: true, token: 't', name: 'n', id: 1, role: 'mitarbeiter', language: 'de' });
    vi.stubGlobal('document', {
      querySelector: (selector: string) =>
        selector === 'meta[name="csrf-token"]' ? { getAttribute: () => 'nonce.signature' } : null,
    });
    await client({ withCsrf: true }).call(loginPassword, { body: { username: 'demo', password: 'demo' } });
    expect(seen[0]?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(seen[0]?.headers['x-csrf-token']).toBe('nonce.signature');
    expect(seen[0]?.headers['x-idempotency-key']).toBeUndefined();
  });

  it('the second client logs an error once when the page has no CSRF tag, and still sends the call', async () => {
    script = (_req, res) =>
      json(res, 200, { success: true, token: 't', name: 'n', id: 1, role: 'mitarbeiter', language: 'de' });
    vi.stubGlobal('document', { querySelector: () => null });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    resetCsrfWarning();
    const api = client({ withCsrf: true });
    await api.call(loginPassword, { body: { username: 'demo', password: 'demo' } });
    await api.call(loginPassword, { body: { username: 'demo', password: 'demo' } });
    expect(error).toHaveBeenCalledTimes(1);
    expect(seen[0]?.headers['x-csrf-token']).toBeUndefined();
    error.mockRestore();
  });

  it('reads an answer whose bytes come in pieces: with its length, without one, and compressed', async () => {
    const answer = { ...found, name: 'Größe Ä – Kugelschreiber' };
    const bytes = Buffer.from(JSON.stringify(answer));
    // Cut inside the 'Ä' (two bytes in UTF-8): the pieces decode only together.
    const cut = bytes.indexOf(Buffer.from('Ä')) + 1;
    const inPieces = (res: http.ServerResponse, headers: http.OutgoingHttpHeaders, body: Buffer) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 30);
    };
    script = (_req, res) => inPieces(res, { 'content-length': bytes.length }, bytes);
    expect(await client().call(findArticle, { params: { number: '1' } })).toEqual(answer);
    script = (_req, res) => inPieces(res, {}, bytes); // chunked
    expect(await client().call(findArticle, { params: { number: '1' } })).toEqual(answer);
    // The length of the compressed bytes, more of them once the browser undid the compression.
    const zipped = gzipSync(bytes);
    script = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': zipped.length,
      });
      res.end(zipped);
    };
    expect(await client().call(findArticle, { params: { number: '1' } })).toEqual(answer);
  });

  it('an answer cut short, not JSON or outside the contract is the system error, not a crash', async () => {
    const bytes = Buffer.from(JSON.stringify(found));
    const answers: ((res: http.ServerResponse) => void)[] = [
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length + 10 });
        res.write(bytes);
        setTimeout(() => res.destroy(), 30);
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 9 });
        res.end('<html>!!!');
      },
      (res) => json(res, 200, { ...found, count: 'eins' }),
    ];
    for (const answer of answers) {
      script = (_req, res) => answer(res);
      const error = await client({ retries: 0 })
        .call(findArticle, { params: { number: '1' } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe('Systemfehler (Fehler 500) - Bitte an die IT wenden.');
    }
  });
});

/**
 * An overloaded server answers 503 with Retry-After and a German message (decision 26): the next try waits
 * that long, within the call's 5 s; the answer's words reach the screen. Scripted fetch on a clock the test
 * moves, so the waits are exact.
 */
describe('the API client and an overloaded server', () => {
  const overloadText = 'Server ausgelastet – bitte in ein paar Sekunden noch einmal versuchen.';
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const overloaded = (retryAfter = '1') =>
    answer(503, { success: false, message: overloadText }, { 'retry-after': retryAfter });

  /** A fetch that answers from the list in turn (the last one again past its end), noting each try. */
  function scripted(answers: (() => Response)[]) {
    const tries: { at: number; key: string | undefined }[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      init?.signal?.throwIfAborted();
      const headers = init?.headers as Record<string, string>;
      tries.push({ at: Date.now(), key: headers['x-idempotency-key'] });
      const next = answers[tries.length - 1] ?? answers[answers.length - 1];
      if (!next) throw new Error('no answer scripted');
      return next();
    });
    return { fetch, tries };
  }

  let start = 0;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    start = Date.now();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const book = { body: { lp: 1, article: 2, amount: 3 } };

  it('waits the Retry-After before the next try, under the same key, and the booking goes through', async () => {
    const server = scripted([overloaded, overloaded, () => answer(200, { success: true })]);
    const call = client({ fetch: server.fetch }).call(bookInventur, book);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await call).toEqual({ success: true });
    expect(server.tries.map((t) => t.at - start)).toEqual([0, 1000, 2000]);
    expect(new Set(server.tries.map((t) => t.key)).size).toBe(1);
  });

  it('gives up within the 5 s: five tries a second apart, then the server’s own message', async () => {
    const server = scripted([overloaded]);
    const call = client({ fetch: server.fetch })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    const error = await call;
    expect(server.tries.map((t) => t.at - start)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).message).toBe(overloadText);
    expect((error as ApiError).retryAfterMs).toBe(1000);
  });

  /** A lookup through `fetch`, its 5 s run out on the test's clock: what it ended with, and when (ms). */
  async function lookUpFor5s(fetch: typeof globalThis.fetch) {
    let settledAt = -1;
    const call = client({ fetch })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => {
        settledAt = Date.now() - start;
        return e;
      });
    await vi.advanceTimersByTimeAsync(5000);
    return { error: await call, settledAt };
  }

  it('never waits past the budget: a wait that would end after it ends the call with that answer at once', async () => {
    const server = scripted([() => overloaded('3')]);
    const { error, settledAt } = await lookUpFor5s(server.fetch);
    expect(server.tries.map((t) => t.at - start)).toEqual([0, 3000]); // a third would start at 6000
    expect(settledAt).toBe(3000);
    expect((error as ApiError).message).toBe(overloadText);

    const patient = scripted([() => overloaded('120')]);
    const refused = await client({ fetch: patient.fetch })
      .call(findArticle, { params: { number: '1' } })
      .catch((e: unknown) => e);
    expect(patient.tries).toHaveLength(1);
    expect((refused as ApiError).retryAfterMs).toBe(120_000);
  });

  it('sends a try after Retry-After only with a second of the budget left for its answer', async () => {
    // Answers take 300 ms. The first asks for 3 s: the try at 3.3 s has 1.7 s left. The second asks for 1 s:
    // a try at 4.6 s would have 0.4 s — that 503 is the answer instead.
    const server = scripted([() => overloaded('3'), () => overloaded('1')]);
    const slow = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return server.fetch(url, init);
    });
    const { error, settledAt } = await lookUpFor5s(slow);
    expect(server.tries.map((t) => t.at - start)).toEqual([300, 3600]);
    expect(settledAt).toBe(3600);
    expect((error as ApiError).message).toBe(overloadText);
  });

  it('still retries every other failure at once (SPEC §7): a 500, a 503 without Retry-After', async () => {
    const server = scripted([
      () => answer(500, { success: false, message: 'x' }),
      () => answer(503, { success: false, message: 'x' }),
      () => answer(502, {}),
      () => answer(200, found),
    ]);
    expect(await client({ fetch: server.fetch }).call(findArticle, { params: { number: '1' } })).toEqual(
      found,
    );
    expect(server.tries.map((t) => t.at - start)).toEqual([0, 0, 0, 0]);
  });

  it('sends no further try once the screen cancelled the call', async () => {
    const server = scripted([overloaded]);
    const cancel = new AbortController();
    const call = client({ fetch: server.fetch })
      .call(findArticle, { params: { number: '1' }, signal: cancel.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(300);
    cancel.abort();
    await vi.advanceTimersByTimeAsync(700);
    const error = await call;
    expect((error as Error).name).toBe('AbortError');
    expect(server.tries).toHaveLength(1); // the try after the cancelled wait fails at once, sends nothing
  });
});
