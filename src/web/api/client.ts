import type { z } from 'zod';
import type { Endpoint, ErrorBody } from '../../contract/endpoint.ts';
import { currentLanguage } from '../../contract/i18n/current.ts';
import { buildPath } from '../../contract/path.ts';
import { coreTexts as texts } from '../../contract/texts-core.ts';

/**
 * The HTTP client, as SPEC §7 describes it: one 5000 ms budget for the whole call (not reset between tries),
 * up to 4 retries without delay — except after a 503 with Retry-After (an overloaded server, decision 26),
 * which waits that long first —, the stored key as `Authorization: Bearer` and `Access-Token`, and for every
 * POST/PUT one `X-Idempotency-Key` that stays the same across the retries of that action. Which failures
 * are retried: see README.md in this folder.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /**
     * The refusal's body as the contract declares it (`errorBody`), for a screen that acts on more than the
     * message: e.g. `details?.lieferschein` on the packing station's 404. Null for 5xx, 401 and bodies that
     * are not the API's.
     */
    readonly details: ErrorBody | null = null,
    /**
     * The server was overloaded (decision 26): its 503 with the API's body and Retry-After, in ms. The message
     * is then the server's ('Server ausgelastet …'). Null for every other answer.
     */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * An error answer's body, read by hand: `errorBody`'s zod schema would pull zod into the login screen's
 * bundle. client.test.ts checks that every field the contract declares comes through.
 */
function errorBodyOf(payload: unknown): ErrorBody | null {
  if (!payload || typeof payload !== 'object') return null;
  const { success, message, code, params, lieferschein, abgegeben, fahrtVorbei } = payload as Record<
    string,
    unknown
  >;
  if (success !== false || typeof message !== 'string') return null;
  return {
    success,
    message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(Array.isArray(params) ? { params } : {}),
    ...(typeof lieferschein === 'string' ? { lieferschein } : {}),
    ...(typeof abgegeben === 'string' ? { abgegeben } : {}),
    ...(typeof fahrtVorbei === 'string' ? { fahrtVorbei } : {}),
  };
}

/** No answer at all: the network is down, or the time budget ran out. */
export class NetworkError extends Error {
  constructor() {
    super(texts.errors.network);
    this.name = 'NetworkError';
  }
}

export interface ClientOptions {
  /** API base, '' = same origin. */
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  /** The stored access key, read at every call. */
  getToken: () => string | null;
  /** Called on a 401 of a call that is not a scan; the app alerts, clears storage and reloads. */
  onUnauthorized: () => void;
  /** The second client of the spec: X-Requested-With, credentials, CSRF token header. */
  withCsrf: boolean;
  fetch?: typeof fetch;
  /** Whether the device has a network at all, and what became of each call (src/web/state/connection.ts). */
  connection?: { offline(): boolean; report(reached: boolean): void };
}

/** Path parameters as the screen has them: ids as numbers, scans as text (all end up in the URL). */
type PathParams<E extends Endpoint> = { [K in keyof z.input<E['params']>]: string | number };

export interface CallOptions<E extends Endpoint> {
  params?: PathParams<E>;
  body?: z.input<E['body']>;
  /** The query string of a call that takes one (the Leitstand's filters and pages); undefined values are left out. */
  query?: E['query'] extends z.ZodType ? z.input<E['query']> : never;
  /** One key per user action: pass the same key again to retry that action later. */
  idempotencyKey?: string;
  /**
   * 'global' (default): alert, forget the login, reload. 'scan': keep the entered fields and say
   * 'Scan wurde nicht gespeichert …'. 'answer': the 401 is the answer itself (a refused login).
   */
  on401?: On401;
  signal?: AbortSignal;
}

type On401 = 'global' | 'scan' | 'answer';

const RETRYABLE = (status: number) => status >= 500;

/**
 * What a try after a 503's Retry-After must still have of the call's budget for its answer (ms): an admitted
 * call is answered within a second (decision 26: at most 500 ms in line, then its work).
 */
export const RETRY_ANSWER_ROOM_MS = 1000;

/** A 503's Retry-After in ms (seconds; our server never sends a date, which counts as none), else 0. */
const retryAfterMs = (response: Response) =>
  response.status === 503 ? Number(response.headers.get('retry-after')) * 1000 || 0 : 0;

let csrfWarned = false;
function csrfToken(): string | null {
  const content = globalThis.document?.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
  if (!content || content === '__CSRF_TOKEN__') {
    if (!csrfWarned) {
      csrfWarned = true;
      console.error('CSRF token not found: <meta name="csrf-token"> is missing from the page.');
    }
    return null;
  }
  return content;
}

/** For tests: forget that the missing CSRF tag was already reported. */
export function resetCsrfWarning(): void {
  csrfWarned = false;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The answer's JSON as soon as all its bytes are there — as many as its Content-Length says — not only when
 * the browser also reports the transfer finished: `json()` waits for that report, which came 2–10 ms later on
 * a handheld's busy CPU (bench, 4× throttled). A length that does not fit (an answer the transport compressed)
 * only means the whole answer is read first, as `json()` reads it; the early bytes count only as whole JSON.
 */
async function readJson(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return response.json();
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const parse = () => {
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return JSON.parse(new TextDecoder().decode(bytes));
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parse();
    chunks.push(value);
    received += value.length;
    if (received === length) {
      try {
        const payload = parse();
        reader.releaseLock();
        return payload;
      } catch {
        // not all of it after all: read on
      }
    }
  }
}

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function call<E extends Endpoint>(
    endpoint: E,
    call: CallOptions<E> = {},
  ): Promise<z.output<E['response']>> {
    const url =
      options.baseUrl +
      buildPath(endpoint.path, (call.params ?? {}) as Record<string, string | number>) +
      queryString(call.query as Record<string, unknown> | undefined);
    // The language in use: the server answers in it until it knows the login (then in the user's).
    const headers: Record<string, string> = { accept: 'application/json', 'x-language': currentLanguage() };
    const token = options.getToken();
    if (token) {
      headers.authorization = `Bearer ${token}`;
      headers['access-token'] = token;
    }
    if (endpoint.method !== 'GET') {
      headers['content-type'] = 'application/json';
      if (endpoint.idempotent) headers['x-idempotency-key'] = call.idempotencyKey ?? crypto.randomUUID();
    }
    if (options.withCsrf) {
      headers['x-requested-with'] = 'XMLHttpRequest';
      const csrf = csrfToken();
      if (csrf) headers['x-csrf-token'] = csrf;
    }
    const body = endpoint.method === 'GET' ? undefined : JSON.stringify(call.body ?? {});
    // Without a network a call cannot be answered: say so at once instead of trying until the deadline.
    if (options.connection?.offline()) throw new NetworkError();

    // One deadline for all tries together.
    const ends = Date.now() + options.timeoutMs;
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;

    let response: Response | null = null;
    for (let attempt = 0; attempt <= options.retries; attempt++) {
      try {
        response = await doFetch(url, {
          method: endpoint.method,
          headers,
          body,
          signal,
          credentials: options.withCsrf ? 'include' : 'same-origin',
        });
      } catch (error) {
        response = null;
        if (call.signal?.aborted) throw error;
        if (deadline.aborted) break;
        continue;
      }
      if (!RETRYABLE(response.status) || attempt === options.retries || deadline.aborted) break;
      // An overloaded server asks for a moment (503, Retry-After): the next try waits for it — unless that
      // leaves the try less than a second of the budget for its answer: then this answer is the call's (a
      // capture scan goes to the outbox at once) rather than a try that times out.
      const wait = retryAfterMs(response);
      if (wait > 0 && Date.now() + wait + RETRY_ANSWER_ROOM_MS > ends) break;
      // Free the connection of an answer we will not read.
      await response.body?.cancel().catch(() => {});
      // A call cancelled meanwhile fails at the next try, which it then never sends.
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    options.connection?.report(response !== null);
    if (!response) throw new NetworkError();
    return answer(endpoint, response, call.on401 ?? 'global');
  }

  async function answer<E extends Endpoint>(endpoint: E, response: Response, on401: On401) {
    let payload: unknown = null;
    try {
      payload = await readJson(response);
    } catch {
      payload = null;
    }
    if (response.ok) {
      const parsed = endpoint.response.safeParse(payload);
      if (!parsed.success) throw new ApiError(response.status, texts.errors.system500);
      return parsed.data as z.output<E['response']>;
    }
    if (response.status === 401 && on401 !== 'answer') {
      if (on401 === 'scan') throw new ApiError(401, texts.errors.scanNotSaved);
      options.onUnauthorized();
      throw new ApiError(401, texts.errors.noLogin);
    }
    // SPEC §8: any 5xx reads 'Systemfehler (Fehler 500) …', whatever its body says — except our overload
    // answer (503, the API's body, Retry-After): 'tell IT' is the wrong advice there (README).
    if (response.status >= 500) {
      const overload = retryAfterMs(response) > 0 ? errorBodyOf(payload) : null;
      if (overload) throw new ApiError(503, overload.message, null, retryAfterMs(response));
      throw new ApiError(response.status, texts.errors.system500);
    }
    // Every refusal of the API is `{ success: false, message, … }` (errorBody); a proxy's 4xx page is not.
    const body = errorBodyOf(payload);
    throw new ApiError(response.status, body?.message || texts.errors.badRequest, body);
  }

  return { call };
}
