import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Endpoint } from '../../src/contract/endpoint.ts';
import { findLp } from '../../src/contract/lookup.ts';
import { buildPath } from '../../src/contract/path.ts';

/**
 * The floor probe (DESIGN §10): a handheld scanning at a server listening on `base` while back-office work
 * runs — a location lookup every 20 ms over a real socket (the contract caller injects, which would not meet
 * the server's thread and gate as a handheld's request does), with `token`, from the work's start to its end.
 * Each scan's answer time; none may be refused. The tests say how slow the slowest may be.
 */
export async function scanWhile<T>(
  base: string,
  token: string,
  operation: () => Promise<T>,
): Promise<{ result: T; scans: number[] }> {
  const scans: number[] = [];
  let running = true;
  const scanner = (async () => {
    while (running) {
      const sent = performance.now();
      const answer = await fetch(`${base}${buildPath(findLp.path, { code: 'A-01-01-01' })}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
      scans.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await operation(), scans };
  } finally {
    running = false;
    await scanner;
  }
}

/** A staff write to the server on `base` over a real socket, with its JSON body and a new X-Idempotency-Key. */
export const writeCall = (
  base: string,
  token: string,
  e: Endpoint,
  params: Record<string, string | number>,
  body: unknown,
) =>
  fetch(`${base}${buildPath(e.path, params)}`, {
    method: e.method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body),
  });
