// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useActionKey } from './action-key.ts';
import { ApiError, NetworkError } from './client.ts';

describe('the idempotency key of a form action', () => {
  const keysSent: string[] = [];
  const answer =
    (outcome: 'ok' | Error) =>
    async (key: string): Promise<string> => {
      keysSent.push(key);
      if (outcome instanceof Error) throw outcome;
      return 'ok';
    };

  it('is sent again for the same data while the outcome is unknown, and changes with the data', async () => {
    const { result } = renderHook(() => useActionKey());
    const action = result.current;
    await expect(action.send({ lp: 1, amount: 5 }, answer(new NetworkError()))).rejects.toThrow();
    await expect(action.send({ lp: 1, amount: 5 }, answer(new ApiError(503, 'x')))).rejects.toThrow();
    await expect(action.send({ lp: 1, amount: 5 }, answer(new ApiError(401, 'x')))).rejects.toThrow();
    await action.send({ lp: 1, amount: 5 }, answer('ok'));
    const [first, ...repeats] = keysSent.splice(0);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(repeats).toEqual([first, first, first]); // lost answer, server error, login ran out

    await expect(action.send({ lp: 1, amount: 6 }, answer(new NetworkError()))).rejects.toThrow();
    expect(keysSent.splice(0)[0]).not.toBe(first); // the last action succeeded: a new one
    await action.send({ lp: 1, amount: 7 }, answer('ok'));
    await action.send({ lp: 1, amount: 7 }, answer('ok'));
    const [changed, afterSuccess] = keysSent.splice(0);
    expect(afterSuccess).not.toBe(changed); // the same data pressed again after success is a new booking
  });

  it('starts a new action after a refusal, so a press after the worker fixed things is judged afresh', async () => {
    const { result } = renderHook(() => useActionKey());
    for (const status of [400, 404, 409]) {
      await expect(
        result.current.send({ from: 1, to: 2 }, answer(new ApiError(status, 'Nicht genügend Bestand.'))),
      ).rejects.toThrow('Nicht genügend Bestand.');
    }
    await result.current.send({ from: 1, to: 2 }, answer('ok'));
    expect(new Set(keysSent.splice(0)).size).toBe(4);
  });
});
