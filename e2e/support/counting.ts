import { type APIRequestContext, expect } from '@playwright/test';
import { importCsv, lead, newPicker } from './picking.ts';

/**
 * Count tasks of a test's own (issue 42, Permanente Inventur): new locations with a known stock, a counter of
 * its own, and a 'bereich' plan over exactly those locations assigned to that counter, its tasks created by the
 * lead's 'Aufträge anlegen' — through the Leitstand's API, as a shift lead sets them up. 'Nächster
 * Zählauftrag' gives a counter the tasks assigned to them first, in walking order, so a test never meets the
 * demo's tasks (aisle A) or another test's, and a run can repeat it (`--repeat-each`).
 */

export interface Counter {
  username: string;
  password: string;
  name: string;
  id: number;
  /** A login of the counter's own, for calls a test makes as them (not the page's). */
  token: string;
}

export interface OwnCount {
  counter: Counter;
  /** The locations' codes in walking order: the counter's tasks come in this order. */
  locations: string[];
}

let count = 0;

/**
 * `stock[i]`: what lies on the i-th new location ([article number, amount] pairs; none: an empty location).
 * Answers the counter and the codes; every location has an open task assigned to the counter, due today.
 */
export async function newCountTasks(
  request: APIRequestContext,
  stock: [nummer: string, amount: number][][],
): Promise<OwnCount> {
  const picker = await newPicker(request);
  const login = await request.post('/api/user/login', {
    data: { username: picker.username, password: picker.password },
  });
  expect(login.status()).toBe(200);
  const { token, id } = (await login.json()) as { token: string; id: number };
  const locations = await newCountLocations(request, stock, id);
  return { counter: { ...picker, id, token }, locations };
}

/**
 * New locations with this stock, each with an open task due today assigned to this user (the lead's plan over
 * exactly them, its 'Aufträge anlegen', then the plan removed). Answers their codes in walking order.
 */
export async function newCountLocations(
  request: APIRequestContext,
  stock: [nummer: string, amount: number][][],
  userId: number,
): Promise<string[]> {
  // The trailing X keeps one test's codes out of another's range ('ZK1X-…' never between 'ZK12X-01' and -09).
  const tag = `Z${Date.now().toString(36).toUpperCase()}${++count}X`;
  const locations = stock.map((_, i) => `${tag}-${String(i + 1).padStart(2, '0')}`);
  await importCsv(request, 'locations', ['Lagerplatz', ...locations].join('\n'));
  const rows = stock.flatMap((lines, i) =>
    lines.map(([nummer, amount]) => `${locations[i]};${nummer};${amount}`),
  );
  if (rows.length > 0)
    await importCsv(request, 'stock', ['Lagerplatz;Artikelnummer;Menge', ...rows].join('\n'));
  const name = `E2E ${tag}`;
  await lead(request, 'POST', '/api/leitstand/inventur/plaene', {
    name,
    art: 'bereich',
    von: locations[0],
    bis: locations.at(-1),
    tage: null,
    klasse: null,
    faelligInTagen: 0,
    benutzerId: userId,
  });
  const { data } = await lead(request, 'GET', '/api/leitstand/inventur/plaene');
  const plan = (data.plaene as { id: number; name: string }[]).find((p) => p.name === name);
  expect(plan, `plan ${name}`).toBeDefined();
  const created = await lead(request, 'POST', `/api/leitstand/inventur/plaene/${plan?.id}/auftraege`, {});
  expect(created.angelegt).toBe(locations.length);
  // The plan's work is done: removed, so the Zählpläne page does not fill up with tests' plans (its tasks stay).
  await lead(request, 'PUT', `/api/leitstand/inventur/plaene/${plan?.id}/entfernen`, {});
  return locations;
}

/** What the books say lies on a location (the Lagerplatzprüfung's call): amount by article number. */
export async function stockOn(
  request: APIRequestContext,
  token: string,
  code: string,
): Promise<Record<string, number>> {
  const headers = { authorization: `Bearer ${token}` };
  const lp = await (await request.get(`/api/inventur/findlp/${code}`, { headers })).json();
  const res = await request.get(`/api/umbuchung/${lp.id}`, { headers });
  expect(res.status()).toBe(200);
  const rows = (await res.json()) as { number: string; amount: number }[];
  return Object.fromEntries(rows.map((r) => [r.number, r.amount]));
}

/** Another handheld (this login) moves pieces of an article from one location to another ('Artikel umlagern'). */
export async function moveArticle(
  request: APIRequestContext,
  token: string,
  move: { from: string; to: string; nummer: string; amount: number },
): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const idOf = async (path: string) =>
    ((await (await request.get(path, { headers })).json()) as { id: number }).id;
  const res = await request.post('/api/umbuchung/artikel/', {
    headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
    data: {
      from: await idOf(`/api/inventur/findlp/${move.from}`),
      to: await idOf(`/api/inventur/findlp/${move.to}`),
      article: await idOf(`/api/inventur/findarticle/${move.nummer}`),
      amount: move.amount,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}
