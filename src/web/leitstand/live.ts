import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { leitstandLive } from '../../contract/leitstand/uebersicht.ts';
import { onUnauthorized } from '../api/api.ts';
import { readSession } from '../api/session.ts';

type LiveState = 'connecting' | 'live' | 'reconnecting';

/** How long to wait before the next try after the stream broke: short first, then at most this. */
const RETRY_MS = [500, 1000, 2000, 5000];

/**
 * Listens to the server's announcements of writes (GET /api/leitstand/live, server-sent events) and reloads
 * every query on the page when one comes — so a booking on any handheld shows within a moment. The stream
 * is read with fetch (EventSource cannot send the login's token); a broken stream is opened again by itself.
 */
export function useLiveUpdates(): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    const stop = new AbortController();
    void follow(queryClient, setState, stop.signal);
    return () => stop.abort();
  }, [queryClient]);
  return state;
}

async function follow(queryClient: QueryClient, setState: (state: LiveState) => void, signal: AbortSignal) {
  let failures = 0;
  while (!signal.aborted) {
    try {
      const token = readSession()?.token ?? '';
      const base = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
      const response = await fetch(base + leitstandLive.path, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        signal,
      });
      if (response.status === 401) {
        // The login is gone: the app's one answer (the login screen), not a stream tried again forever.
        onUnauthorized();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`live: ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          if (event === 'ready') {
            failures = 0;
            setState('live');
            // Whatever happened while the stream was down is read again.
            void queryClient.invalidateQueries();
          } else if (event === 'change') {
            void queryClient.invalidateQueries();
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    setState('reconnecting');
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] ?? 5000;
    failures++;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
