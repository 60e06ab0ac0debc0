import { useMemo, useRef } from 'react';
import { ApiError } from './client.ts';

/**
 * The idempotency key of a form's action (SPEC §4/§7). Sending the same data again after an unknown outcome
 * — a lost answer, a dead zone, a server error — reuses the key, so the server applies it once. A definite
 * answer ends the action: after success and after a refusal (the server stores the refusal with the key) the
 * next press is a new action with a new key, so it is judged on the warehouse as it is now. Changed data is
 * a new action too.
 */
export function useActionKey() {
  const last = useRef<{ key: string; body: string } | null>(null);
  return useMemo(
    () => ({
      async send<T>(body: unknown, call: (idempotencyKey: string) => Promise<T>): Promise<T> {
        const text = JSON.stringify(body);
        if (last.current?.body !== text) last.current = { key: crypto.randomUUID(), body: text };
        const { key } = last.current;
        const finish = () => {
          if (last.current?.key === key) last.current = null;
        };
        try {
          const answer = await call(key);
          finish();
          return answer;
        } catch (error) {
          if (isDefinite(error)) finish();
          throw error;
        }
      },
    }),
    [],
  );
}

/**
 * A refusal the server gave after judging the action (400, 404, 409, …). Not: no answer, a server error (the
 * transaction rolled back), or 401 — after logging in again the same user re-sends under the same key, which
 * replays the first try's outcome if that try got through before the login ran out.
 */
function isDefinite(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401;
}
