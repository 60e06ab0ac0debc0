import { type QueryKey, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import { onUnauthorized } from '../api/api.ts';
import { type CallOptions, createClient } from '../api/client.ts';
import { readSession } from '../api/session.ts';

/**
 * The Leitstand's client: the same contract and error path as the handheld's, with a longer deadline (a
 * journal page or an import may take longer than a scan) and a wired desk instead of a radio.
 */
const clientOptions = {
  baseUrl: (import.meta.env.VITE_API_BASE as string | undefined) ?? '',
  timeoutMs: 30_000,
  retries: 2,
  getToken: () => readSession()?.token ?? null,
  onUnauthorized,
  withCsrf: false,
};
export const leitstandApi = createClient(clientOptions);

/**
 * For the CSV upload (Leitstand › Import): a large file may take minutes to import. A retry after a lost
 * answer carries the same key, so it waits for the first copy and answers its result.
 */
export const leitstandUploadApi = createClient({ ...clientOptions, timeoutMs: 10 * 60_000 });

type ReadOptions<E extends Endpoint> = Pick<CallOptions<E>, 'params' | 'query'>;

/** The query key of a call: its name, then its params and query. Live updates reload every active query. */
export function keyOf<E extends Endpoint>(endpoint: E, options: ReadOptions<E> = {}): QueryKey {
  return [endpoint.name, options.params ?? {}, options.query ?? {}];
}

/**
 * Reads a GET call with TanStack Query: cached per params and query, reloaded when the live stream announces
 * a change (live.ts) and when the window gets focus again.
 */
export function useLeitstandQuery<E extends Endpoint>(
  endpoint: E,
  options: ReadOptions<E> = {},
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: keyOf(endpoint, options),
    queryFn: ({ signal }) => leitstandApi.call(endpoint, { ...options, signal }),
    enabled,
  });
}

/**
 * A write of the Leitstand. `mutate(input)` sends it once; each call of `mutate` is one action with its own
 * idempotency key, which the client keeps for its retries, so a retried request is applied once.
 */
export function useLeitstandMutation<E extends Endpoint>(
  endpoint: E,
  { onSuccess }: { onSuccess?: (answer: z.output<E['response']>) => void } = {},
) {
  return useMutation({
    mutationFn: (input: Pick<CallOptions<E>, 'params' | 'body' | 'query'>) =>
      leitstandApi.call(endpoint, { ...input, idempotencyKey: crypto.randomUUID() }),
    onSuccess,
  });
}
