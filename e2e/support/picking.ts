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
