// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useActionKey } from './action-key.ts';

describe('the idempotency key of a form action', () => {
  it('stays the same for the same data until the action succeeded, and changes with the data', () => {
    const { result } = renderHook(() => useActionKey());
    const first = result.current.for({ lp: 1, amount: 5 });
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.current.for({ lp: 1, amount: 5 })).toBe(first); // a re-send after a lost answer
    const changed = result.current.for({ lp: 1, amount: 6 });
    expect(changed).not.toBe(first); // other data: another action
    result.current.done();
    expect(result.current.for({ lp: 1, amount: 6 })).not.toBe(changed); // the next action after success
  });
});
