import { useRef } from 'react';

/**
 * The idempotency key of a form's action (SPEC §4/§7). Sending the same data again after a failure — a
 * lost answer, a dead zone — reuses the key, so the server applies it once. Changed data is a new action
 * with a new key. After success the next action gets a new key.
 */
export function useActionKey() {
  const last = useRef<{ key: string; body: string } | null>(null);
  return {
    for(body: unknown): string {
      const text = JSON.stringify(body);
      if (last.current?.body !== text) last.current = { key: crypto.randomUUID(), body: text };
      return last.current.key;
    },
    done(): void {
      last.current = null;
    },
  };
}
