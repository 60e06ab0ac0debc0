import { randomUUID } from 'node:crypto';
import { seededRandom } from '../../src/server/seed/random.ts';

/**
 * The work booked while the power may go: rebookings, goods received, picks and receipt imports, through the
 * real server's HTTP API, each with its own X-Idempotency-Key. Every call is remembered with its key, so the
 * audit knows what an acknowledged key must have left in the database.
 */
export type ActionKind = 'rebooking' | 'receipt' | 'pick' | 'pickOther' | 'import';

export interface Action {
  key: string;
  kind: ActionKind;
  /** rebooking, receipt, pick: the journal rows (movements) its effect writes. import: the receipt number. */
  receipt?: string;
}

export interface LoadWorld {
  /** Pairs of locations (ids) holding an article (id), rebooked to and fro. */
  rebookings: { from: number; to: number; article: number }[];
  receipt: { nummer: string; position: number; location: string };
}

export interface Load {
  actions: Map<string, Action>;
  /** Answers read by the load, by kind and status class. */
  answered: Record<ActionKind, { ok: number; refused: number; failed: number }>;
}

export async function runLoad(options: {
  base: string;
  world: LoadWorld;
  seconds: number;
  seed: number;
}): Promise<Load> {
  const { base, world } = options;
  const random = seededRandom(options.seed);
  const actions = new Map<string, Action>();
  const empty = () => ({ ok: 0, refused: 0, failed: 0 });
  const answered: Load['answered'] = {
    rebooking: empty(),
    receipt: empty(),
    pick: empty(),
    pickOther: empty(),
    import: empty(),
  };
  const login = async (username: string, password: string) => {
    const res = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
    return ((await res.json()) as { token: string }).token;
  };
  const worker = await login('demo', 'demo');
  const lead = await login('leitung', 'leitung');
  const admin = await login('admin', 'admin');

  const post = async (
    token: string,
    kind: ActionKind,
    url: string,
    body: unknown,
    extra: Partial<Action> = {},
  ) => {
    const key = randomUUID();
    actions.set(key, { key, kind, ...extra });
    try {
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-idempotency-key': key,
        },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as Record<string, unknown>;
      answered[kind][res.ok ? 'ok' : res.status < 500 ? 'refused' : 'failed']++;
      return res.ok ? answer : null;
    } catch {
      // The server was killed with the call in flight: the run is over.
      answered[kind].failed++;
      return null;
    }
  };

  const deadline = Date.now() + options.seconds * 1000;
  const running = () => Date.now() < deadline;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)] as T;

  const rebooker = async () => {
    while (running()) {
      const r = pick(world.rebookings);
      const [from, to] = random.next() < 0.5 ? [r.from, r.to] : [r.to, r.from];
      await post(worker, 'rebooking', '/api/umbuchung/artikel/', { from, to, article: r.article, amount: 1 });
    }
  };
  const receiver = async () => {
    while (running()) {
      await post(worker, 'receipt', '/api/wareneingang/buchen', {
        wareneingang: world.receipt.nummer,
        position: world.receipt.position,
        lagerplatz: world.receipt.location,
        amount: 1,
        charge: null,
        mhd: null,
        mehrmenge: true,
      });
    }
  };
  interface PickNote {
    id: number;
    positionen: { id: number; offen: number; lagerplatz: { id: number } | null }[];
  }
  // Two pickers of their own (one note each: a picker asking again is given the note they hold).
  const picker = async (token: string) => {
    while (running()) {
      const next = await post(token, 'pickOther', '/api/kommissionierung/naechster', {});
      const note = next?.data as PickNote | undefined;
      if (!note) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      for (const line of note.positionen) {
        if (!running()) break;
        if (line.offen === 0) continue;
        if (line.lagerplatz)
          await post(token, 'pick', '/api/kommissionierung/entnahme', {
            id: note.id,
            positionId: line.id,
            lagerplatzId: line.lagerplatz.id,
            menge: line.offen,
          });
        else
          await post(token, 'pickOther', '/api/kommissionierung/fehlmenge', {
            id: note.id,
            positionId: line.id,
            menge: line.offen,
          });
      }
    }
  };
  let imports = 0;
  const importer = async () => {
    while (running()) {
      const nummer = `WE9${String(options.seed % 1000).padStart(3, '0')}${String(++imports).padStart(4, '0')}`;
      const csv = `Wareneingang;Lieferant;Artikelnummer;Menge\n${nummer};Stromausfall GmbH;100001;5\n${nummer};Stromausfall GmbH;100003;7\n`;
      await post(
        admin,
        'import',
        '/api/admin/import/receipts',
        { fileName: `${nummer}.csv`, content: Buffer.from(csv).toString('base64') },
        { receipt: nummer },
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await Promise.all([
    ...Array.from({ length: 6 }, rebooker),
    ...Array.from({ length: 2 }, receiver),
    picker(worker),
    picker(lead),
    importer(),
  ]);
  return { actions, answered };
}
