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

async function importCsv(request: APIRequestContext, kind: string, csv: string): Promise<void> {
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
      ...lines.map(([nummer, menge]) => `${belegnr};ja;DHL037;Onlineshop;${nummer};${menge}`),
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
  if (!leadToken) {
    const login = await request.post('/api/user/login', {
      data: { username: 'leitung', password: 'leitung' },
    });
    leadToken = (await login.json()).token as string;
  }
  const res = await request.post(`/api/kommissionierung/${path}`, {
    headers: {
      authorization: `Bearer ${leadToken}`,
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

/** The demo's logins, each a colleague who may pick on a cart of their own: one login each, kept for the run. */
const COLLEAGUES = [
  { username: 'demo', password: 'demo' },
  { username: 'leitung', password: 'leitung' },
  { username: 'admin', password: 'admin' },
];
const colleagueTokens = new Map<string, string>();
/** The colleagues' carts imported in this run (once each). */
const colleagueCarts = new Set<string>();

async function colleagueToken(
  request: APIRequestContext,
  colleague: { username: string; password: string },
): Promise<string> {
  const known = colleagueTokens.get(colleague.username);
  if (known) return known;
  const login = await request.post('/api/user/login', { data: colleague });
  expect(login.status()).toBe(200);
  const token = (await login.json()).token as string;
  colleagueTokens.set(colleague.username, token);
  return token;
}

/**
 * A cart takes the oldest pickable notes nobody else holds (decision 33). The run's other specs and the demo
 * leave older notes pickable than the test's own, and some of them claimed for a demo login; so the three demo
 * colleagues first take every one of them onto a big cart each (`KWX-<login>`, 99 compartments), as colleagues
 * picking at the same time would, and a new worker's cart gets the test's own notes. Answers how to let go of
 * them again ('Abbrechen' of each colleague's trip: nothing was picked, every note is released).
 */
export async function takeOlderNotes(request: APIRequestContext): Promise<() => Promise<void>> {
  const trips: { token: string; fahrtId: number }[] = [];
  for (const colleague of COLLEAGUES) {
    const code = `KWX-${colleague.username.toUpperCase()}`;
    if (!colleagueCarts.has(code)) {
      await importCsv(request, 'pick-carts', `Kommissionierwagen;Fächer\n${code};99`);
      colleagueCarts.add(code);
    }
    const start = async (token: string) =>
      request.post('/api/kommissionierung/wagen', {
        headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': crypto.randomUUID() },
        data: { code },
      });
    let token = await colleagueToken(request, colleague);
    let started = await start(token);
    if (started.status() === 401) {
      // The kept login ended (a user holds at most 20: the run's other specs log in as the demo's people too).
      colleagueTokens.delete(colleague.username);
      token = await colleagueToken(request, colleague);
      started = await start(token);
    }
    // 409: nothing left to pick for this colleague.
    if (started.status() === 200) trips.push({ token, fahrtId: (await started.json()).data.id });
    else expect(started.status(), await started.text()).toBe(409);
  }
  return async () => {
    for (const { token, fahrtId } of trips) {
      const released = await request.post('/api/kommissionierung/wagen/abbrechen', {
        headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': crypto.randomUUID() },
        data: { fahrtId },
      });
      expect(released.status()).toBe(200);
    }
  };
}
