import { randomUUID } from 'node:crypto';
import { auth, inventur, umbuchung, wmsretoure } from '../../src/contract/index.ts';
import { findArticle, findLp } from '../../src/contract/lookup.ts';
import { ApiError, createClient, NetworkError } from '../../src/web/api/client.ts';

/**
 * One simulated scanner: the web app's own API client (5 s budget, 4 retries, one idempotency key per
 * action) driven by a worker who scans codes and books at random. An action whose answer never came is
 * sent again later with the same key and the same data, as the screens do (useActionKey); at the end of
 * the run, every action still open is sent until it has an answer.
 */
export type ActionKind = 'move' | 'moveLocation' | 'count' | 'wmsReturn';

export interface ActionRecord {
  key: string;
  kind: ActionKind;
  body: Record<string, unknown>;
  /** acked: 2xx answer; refused: 4xx answer; open: no answer yet. */
  outcome: 'acked' | 'refused' | 'open';
  sends: number;
  status?: number;
  message?: string;
}

export interface World {
  /** Location codes; `lhm` marks load carriers (WMS returns go there). */
  locations: { code: string; lhm: boolean }[];
  /** Article numbers. */
  articles: string[];
  /** (location code, article number) pairs that held stock at the start. */
  stock: { location: string; article: string }[];
}

export interface ScannerStats {
  lookups: number;
  lookupFailures: number;
  logins: number;
  /** Answers that break the contract: 409 for our own repeat, 5xx that never went away, bad JSON. */
  anomalies: string[];
}

const pick = <T>(random: () => number, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

export function createScanner(options: {
  id: number;
  baseUrl: string;
  world: World;
  random: () => number;
  credentials: { username: string; password: string };
}) {
  const { random, world } = options;
  let token: string | null = null;
  const client = createClient({
    baseUrl: options.baseUrl,
    timeoutMs: 5000,
    retries: 4,
    getToken: () => token,
    onUnauthorized: () => {
      token = null;
    },
    withCsrf: false,
  });
  const actions: ActionRecord[] = [];
  const stats: ScannerStats = { lookups: 0, lookupFailures: 0, logins: 0, anomalies: [] };
  const ids = new Map<string, number>();
  const known = [...world.stock];
  const lhms = world.locations.filter((l) => l.lhm);
  const shelves = world.locations.filter((l) => !l.lhm);

  const pause = (min: number, max: number) =>
    new Promise((resolve) => setTimeout(resolve, min + random() * (max - min)));

  async function login(): Promise<void> {
    while (token === null) {
      try {
        const answer = await client.call(auth.loginPassword, { body: options.credentials, on401: 'answer' });
        token = answer.token;
        stats.logins++;
      } catch {
        await pause(200, 600);
      }
    }
  }

  /** A GET as a screen does it; null when there was no answer (the worker will scan something else). */
  async function lookup<T>(call: () => Promise<T>): Promise<T | null> {
    stats.lookups++;
    try {
      return await call();
    } catch (error) {
      stats.lookupFailures++;
      if (error instanceof ApiError && error.status === 401) token = null;
      return null;
    }
  }

  async function locationId(code: string): Promise<number | null> {
    const cached = ids.get(`L:${code}`);
    if (cached !== undefined) return cached;
    const found = await lookup(() => client.call(findLp, { params: { code } }));
    if (!found?.found || found.id === null) return null;
    ids.set(`L:${code}`, found.id);
    return found.id;
  }

  async function articleId(nummer: string): Promise<number | null> {
    const cached = ids.get(`A:${nummer}`);
    if (cached !== undefined) return cached;
    const found = await lookup(() => client.call(findArticle, { params: { number: nummer } }));
    if (!found?.found || found.id === null) return null;
    ids.set(`A:${nummer}`, found.id);
    return found.id;
  }

  async function amountOn(lp: number, article: number): Promise<number | null> {
    const answer = await lookup(() =>
      client.call(umbuchung.checkLpArticle, { params: { lpId: lp, articleId: article } }),
    );
    return answer?.amount ?? null;
  }

  /** Scans what a booking needs and returns it, or null when a lookup failed or there is nothing to do. */
  async function plan(): Promise<Omit<ActionRecord, 'key' | 'outcome' | 'sends'> | null> {
    const roll = random();
    if (roll < 0.4) {
      const pair = pick(random, known);
      const from = await locationId(pair.location);
      const article = await articleId(pair.article);
      if (from === null || article === null) return null;
      const have = await amountOn(from, article);
      if (!have) return null;
      const target = pick(random, shelves);
      const to = await locationId(target.code);
      if (to === null || to === from) return null;
      known.push({ location: target.code, article: pair.article });
      const amount = 1 + Math.floor(random() * have);
      return { kind: 'move', body: { from, article, to, amount } };
    }
    if (roll < 0.5) {
      const source = pick(random, known).location;
      const target = pick(random, shelves).code;
      const from = await locationId(source);
      const to = await locationId(target);
      if (from === null || to === null || from === to) return null;
      return { kind: 'moveLocation', body: { from, to } };
    }
    if (roll < 0.8) {
      const pair = pick(random, known);
      const lp = await locationId(pair.location);
      const article = await articleId(pair.article);
      if (lp === null || article === null) return null;
      const have = await amountOn(lp, article);
      if (have === null) return null;
      const counted = Math.max(0, have + Math.floor(random() * 7) - 3);
      return { kind: 'count', body: { lp, article, amount: counted } };
    }
    if (lhms.length === 0) return null;
    const nummer = pick(random, world.articles);
    const item = await lookup(() => client.call(wmsretoure.wmsItem, { params: { article: nummer } }));
    const lhm = pick(random, lhms);
    const storage = await lookup(() => client.call(wmsretoure.wmsStorage, { params: { lhm: lhm.code } }));
    if (!item?.found || item.id === null || !storage?.found || storage.id === null) return null;
    known.push({ location: lhm.code, article: nummer });
    return {
      kind: 'wmsReturn',
      body: {
        article: item.id,
        lagerplatz: storage.id,
        amount: 1 + Math.floor(random() * 5),
        charge: item.charge ? `CH-${options.id}-${Math.floor(random() * 3)}` : null,
        mhd: item.mindesthaltbarkeit ? '2027-06-30' : null,
        quality: 2,
      },
    };
  }

  const endpoints = {
    move: umbuchung.moveArticle,
    moveLocation: umbuchung.moveLocation,
    count: inventur.bookInventur,
    wmsReturn: wmsretoure.bookWmsRetoure,
  } as const;

  /** Sends an action once (with the client's own retries); true when it has its final answer. */
  async function send(action: ActionRecord): Promise<boolean> {
    if (token === null) await login();
    action.sends++;
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the body was built for exactly this endpoint above
      await client.call(endpoints[action.kind], { body: action.body as any, idempotencyKey: action.key });
      action.outcome = 'acked';
      action.status = 200;
      return true;
    } catch (error) {
      if (error instanceof NetworkError) return false;
      if (!(error instanceof ApiError)) {
        stats.anomalies.push(`${action.kind} ${action.key}: ${String(error)}`);
        return false;
      }
      if (error.status >= 500) return false;
      if (error.status === 401) {
        token = null;
        return false;
      }
      if (error.status === 409) {
        stats.anomalies.push(`${action.kind} ${action.key}: 409 for a repeat of the same action`);
      }
      action.outcome = 'refused';
      action.status = error.status;
      action.message = error.message;
      return true;
    }
  }

  return {
    actions,
    stats,
    /** Scans and books until `running()` says stop; an unanswered action is re-sent a few times. */
    async run(running: () => boolean): Promise<void> {
      await login();
      while (running()) {
        if (token === null) await login();
        const planned = await plan();
        if (!planned) {
          // A lookup without an answer: the worker reads 'Netzwerkfehler' and scans again a moment later.
          await pause(200, 600);
          continue;
        }
        const action: ActionRecord = { ...planned, key: randomUUID(), outcome: 'open', sends: 0 };
        actions.push(action);
        for (let tries = 0; tries < 6 && running(); tries++) {
          if (await send(action)) break;
          await pause(200, 1200);
        }
        await pause(10, 80);
      }
    },
    /** After the faults: every action still without an answer is sent again (same key) until it has one. */
    async settle(deadline: number): Promise<void> {
      for (const action of actions) {
        while (action.outcome === 'open' && Date.now() < deadline) {
          if (!(await send(action))) await pause(200, 500);
        }
      }
    },
  };
}
