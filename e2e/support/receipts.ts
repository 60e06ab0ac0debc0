import { type APIRequestContext, expect } from '@playwright/test';

/**
 * Receipts (Wareneingang) for a test of its own, as the ERP announces them: through the integration call
 * with a token the admin creates. Each test pushes fresh numbers, so specs sharing a run never meet each
 * other's bookings (the demo's WE100001 stays as seeded for the demo tour and the gallery (docs/using.md)).
 */
let integrationToken: string | null = null;

async function tokenFor(request: APIRequestContext): Promise<string> {
  if (integrationToken) return integrationToken;
  const login = await request.post('/api/user/login', { data: { username: 'admin', password: 'admin' } });
  expect(login.status()).toBe(200);
  const admin = (await login.json()).token as string;
  const created = await request.post('/api/admin/schnittstellen', {
    headers: { authorization: `Bearer ${admin}`, 'x-idempotency-key': crypto.randomUUID() },
    data: { name: `e2e-wareneingang-${Date.now()}` },
  });
  expect(created.status(), await created.text()).toBe(200);
  integrationToken = (await created.json()).token as string;
  return integrationToken;
}

export interface PushedLine {
  article: string;
  expected: number;
  charge?: string;
  mhd?: string;
}

/** Pushes a receipt of this number with these lines (a PUT: the same again changes nothing). */
export async function pushReceipt(
  request: APIRequestContext,
  number: string,
  lines: PushedLine[],
): Promise<void> {
  const res = await request.put(`/api/integration/receipts/${number}`, {
    headers: { authorization: `Bearer ${await tokenFor(request)}` },
    data: { supplier: 'Testlieferant GmbH', lines },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A receipt number no other test uses: WE + 8 digits of the clock and a counter. */
let counter = 0;
export function freshReceiptNumber(): string {
  counter += 1;
  return `WE${String(Date.now() % 100_000_000).padStart(8, '0')}${counter}`;
}
