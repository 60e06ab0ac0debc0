import { type APIRequestContext, expect } from '@playwright/test';

/**
 * Pickable delivery notes for the Kommissionierung specs and the scan walker: a note of its own per test
 * (imported as the ERP sends them, through the Leitstand's upload as the admin), and the stock of its
 * articles set to a known amount (a stock import, journalled). The run's other specs share the server, so
 * nothing here touches the demo's notes or their articles.
 */

/** The demo's picking articles (DESIGN §7, LS100003) and where they lie: walking order, then B. */
export const PICK_STOCK: [location: string, nummer: string, amount: number][] = [
  ['A-03-02-01', '100007', 60],
  ['A-04-01-02', '100008', 25],
  ['B-01-02-01', '100006', 40],
];

let adminToken: string | null = null;
let count = 0;

async function admin(request: APIRequestContext): Promise<string> {
  if (adminToken) return adminToken;
  const res = await request.post('/api/user/login', { data: { username: 'admin', password: 'admin' } });
  expect(res.status()).toBe(200);
  adminToken = (await res.json()).token as string;
  return adminToken;
}

/** A CSV of an import kind through the Leitstand's upload, as the admin; every line must be taken. */
export async function importCsv(request: APIRequestContext, kind: string, csv: string): Promise<void> {
  const res = await request.post(`/api/admin/import/${kind}`, {
    headers: { authorization: `Bearer ${await admin(request)}`, 'x-idempotency-key': crypto.randomUUID() },
    data: { fileName: `${kind}.csv`, content: Buffer.from(csv, 'utf8').toString('base64') },
  });
  expect(res.status()).toBe(200);
  const answer = await res.json();
  expect(answer.imported, JSON.stringify(answer.lineErrors)).toBe(true);
}

/** A new pickable note with these lines (article, amount); its articles' stock set as PICK_STOCK says. */
export async function newPickNote(
  request: APIRequestContext,
  lines: [nummer: string, menge: number][] = [
    ['100006', 2],
    ['100008', 3],
    ['100007', 8],
  ],
  versandart = 'DHL037',
): Promise<string> {
  await importCsv(
    request,
    'stock',
    [
      'Lagerplatz;Artikelnummer;Menge',
      ...PICK_STOCK.map(([lp, nummer, amount]) => `${lp};${nummer};${amount}`),
    ].join('\n'),
  );
  const belegnr = `LSE${Date.now().toString(36).toUpperCase()}${++count}`;
  await importCsv(
    request,
    'delivery-notes',
    [
      'Belegnr;EU;Versandart;Projekt;Artikelnummer;Menge',
      ...lines.map(([nummer, menge]) => `${belegnr};ja;${versandart};Onlineshop;${nummer};${menge}`),
    ].join('\n'),
  );
  return belegnr;
}

let leadToken: string | null = null;

/**
 * The shift lead picking on a second handheld, through the API: one login, as a handheld has (a claim
 * belongs to the login that made it; 'Abbrechen' from another login of the same account frees nothing).
 */
async function asLead(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  const res = await request.post(`/api/kommissionierung/${path}`, {
    headers: {
      authorization: `Bearer ${await leadLogin(request)}`,
      'x-idempotency-key': crypto.randomUUID(),
    },
    data,
  });
  expect(res.status()).toBe(200);
  return res.json();
}

/** Claims the note for the shift lead, as a second handheld would. */
export async function claimAsLead(request: APIRequestContext, belegnr: string): Promise<void> {
  await asLead(request, 'auftrag', { belegnr });
}

/** 'Nächster Auftrag' for the shift lead, let go of again at once: which note it is. */
export async function nextForLead(request: APIRequestContext): Promise<string> {
  const { data } = await asLead(request, 'naechster', {});
  await asLead(request, 'abbrechen', { id: data.id });
  return data.belegnr;
}

// ── Rollende Kommissionierung (issue 41) ────────────────────────────────────────────────────────────────

/** A pick cart of the test's own with this many compartments (`<code>-1` …): one that no other test fills. */
export async function newPickCart(request: APIRequestContext, compartments = 6): Promise<string> {
  const code = `KWE${Date.now().toString(36).toUpperCase()}${++count}`;
  await importCsv(request, 'pick-carts', `Kommissionierwagen;Fächer\n${code};${compartments}`);
  return code;
}

/** A worker of the test's own (a new login, role Mitarbeiter): no note is claimed for them yet. */
export async function newPicker(
  request: APIRequestContext,
): Promise<{ username: string; password: string; name: string }> {
  const tag = `${Date.now().toString(36)}${++count}`;
  const picker = { username: `picker-${tag}`, password: `kw-${tag}-pass`, name: `Picker ${tag}` };
  await importCsv(
    request,
    'users',
    `Name;Benutzername;Passwort\n${picker.name};${picker.username};${picker.password}`,
  );
  return picker;
}

/**
 * A wave of the test's own (decision 33: a cart is filled from the oldest released wave with a note on no
 * cart): its notes get a Versandart no other test's notes have (`K…X` — the trailing X keeps one test's code
 * from being the prefix of another's, as a profile's Versandart is a prefix), and the lead releases a profile
 * of exactly that Versandart through the Leitstand's API. A cart scanned then takes exactly the wave's notes,
 * whatever the run's other specs left pickable outside any wave.
 *
 * Every wave released must leave no note open by the end of its test, or the next spec's cart is filled from
 * it: `close` (in a `finally` or an `after`) takes out what no cart ever held and picks, through the
 * single-note flow as the lead, what a cart held and let go again ('Abbrechen' of a trip with nothing put:
 * the membership then cannot be taken out any more). It ends the pickers' logins first (`logins`: a logout
 * ends its trips as 'Abbrechen'), so a test that failed half-way leaves no note on a live trip.
 */
/** The waves released and not closed yet: the test fixture `closeOwnWaves` closes what a test left. */
const unclosed = new Set<OwnWave>();

/**
 * Closes every wave a test left open (its `finally` cut short by the test's timeout, say), on a request
 * context of the fixture's own: the test's is disposed by then.
 */
export async function closeOwnWaves(request: APIRequestContext): Promise<void> {
  for (const wave of [...unclosed]) await wave.close(request);
}

export const ownWavesLeft = () => unclosed.size > 0;

export class OwnWave {
  readonly versandart = `K${Date.now().toString(36).toUpperCase()}${++count}X`;
  id: number | null = null;
  /** The profile set up for it: removed at `close` (its waves stay), so the Wellen page does not fill up. */
  private profileId: number | null = null;
  /** The pickers' logins to end at `close` (added once known): each logout ends its trips as 'Abbrechen'. */
  readonly logins: string[] = [];

  constructor(private readonly request: APIRequestContext) {}

  /** A new pickable note of this wave's Versandart (not released yet: `release` takes it). */
  note(lines: [nummer: string, menge: number][]): Promise<string> {
    return newPickNote(this.request, lines, this.versandart);
  }

  /** The profile's name (set up by `profile`). */
  readonly name = `E2E ${this.versandart}`;

  /** The lead sets up a profile of exactly this Versandart (not released: a page may release it). */
  async profile(): Promise<number> {
    const profile = await lead(this.request, 'POST', '/api/leitstand/kommissionierung/profile', {
      name: this.name,
      versandart: this.versandart,
      maxPositionen: null,
      eu: null,
      eingangVor: null,
      proWagen: 99,
    });
    this.profileId = profile.id as number;
    return this.profileId;
  }

  /** The wave a page released from `profile` (its id read from the page): closed as if `release` made it. */
  adopt(id: number): void {
    this.id = id;
    unclosed.add(this);
  }

  /** The lead sets up a profile of this Versandart and releases it: the wave holds every note made so far. */
  async release(expected: number): Promise<number> {
    const released = await lead(
      this.request,
      'POST',
      `/api/leitstand/kommissionierung/profile/${await this.profile()}/freigeben`,
      {},
    );
    this.id = released.welleId as number;
    unclosed.add(this);
    expect(released.lieferscheine).toBe(expected);
    return this.id;
  }

  /** Leaves no note of the wave open: taken out, or picked; then checks the wave holds nothing open. */
  async close(request = this.request): Promise<void> {
    for (const token of this.logins.splice(0))
      await request.get('/api/user/logout', { headers: { authorization: `Bearer ${token}` } });
    if (this.profileId !== null) {
      await lead(request, 'PUT', `/api/leitstand/kommissionierung/profile/${this.profileId}/entfernen`, {});
      this.profileId = null;
    }
    if (this.id === null) return;
    const { data } = await lead(request, 'GET', `/api/leitstand/kommissionierung/wellen/${this.id}`);
    for (const note of data.lieferscheine as {
      id: number;
      belegnr: string;
      zustand: string;
      herausnehmbar: boolean;
    }[]) {
      if (note.herausnehmbar)
        await lead(request, 'PUT', `/api/leitstand/kommissionierung/wellen/${this.id}/herausnehmen`, {
          lieferscheinId: note.id,
        });
      else if (note.zustand === 'offen') await pickWhole(request, note.belegnr);
    }
    const { data: after } = await lead(request, 'GET', '/api/leitstand/kommissionierung/wellen');
    const wave = (after.wellen as { id: number; offen: number; aufWagen: number }[]).find(
      (w) => w.id === this.id,
    );
    expect(wave ? wave.offen + wave.aufWagen : 0, `wave ${this.id} left open`).toBe(0);
    this.id = null;
    unclosed.delete(this);
  }
}

/** A call of the lead (role schichtleitung) on one login kept for the run; a new login if it ended. */
export async function lead(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: Record<string, unknown>,
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read as the contract's shapes above
): Promise<any> {
  const send = async () =>
    request.fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${await leadLogin(request)}`,
        ...(method === 'GET' ? {} : { 'x-idempotency-key': crypto.randomUUID() }),
      },
      ...(data ? { data } : {}),
    });
  let res = await send();
  if (res.status() === 401) {
    // The kept login ended (a user holds at most 20 logins: other specs log in as the lead too).
    leadToken = null;
    res = await send();
  }
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(200);
  return res.json();
}

async function leadLogin(request: APIRequestContext): Promise<string> {
  if (leadToken) return leadToken;
  const login = await request.post('/api/user/login', { data: { username: 'leitung', password: 'leitung' } });
  expect(login.status()).toBe(200);
  leadToken = (await login.json()).token as string;
  return leadToken;
}

/** The lead picks a whole note as a single note (claim, each open line from where it lies). */
async function pickWhole(request: APIRequestContext, belegnr: string): Promise<void> {
  const { data } = await lead(request, 'POST', '/api/kommissionierung/auftrag', { belegnr });
  for (const line of data.positionen as { id: number; offen: number; lagerplatz: { id: number } | null }[]) {
    if (line.offen === 0) continue;
    if (!line.lagerplatz) {
      // Nowhere to pick it from (a location marked for a count by a test that failed half-way): short.
      await lead(request, 'POST', '/api/kommissionierung/fehlmenge', {
        id: data.id,
        positionId: line.id,
        menge: line.offen,
      });
      continue;
    }
    await lead(request, 'POST', '/api/kommissionierung/entnahme', {
      id: data.id,
      positionId: line.id,
      lagerplatzId: line.lagerplatz.id,
      menge: line.offen,
    });
  }
}
