import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { texts } from '../../contract/texts.ts';
import { messageOf } from '../api/message.ts';

/**
 * A read's three faces: loading, refused or failed (its German message and a button to try again), or the
 * answer. While a reload runs the last answer stays on screen, so a live update never blanks the page.
 */
export function QueryState<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) return <QueryFailed error={query.error} retry={() => void query.refetch()} />;
  return <p className="hint">{texts.app.loading}</p>;
}

/** A read that was refused or failed: its German message and a button to try again (also a paged read's). */
export function QueryFailed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <div role="alert">
      <p className="leitstand-refusal">{messageOf(error)}</p>
      <button type="button" className="button button--secondary" onClick={retry}>
        {leitstandTexts.retry}
      </button>
    </div>
  );
}
