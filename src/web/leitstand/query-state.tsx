import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { leitstandTexts } from '../../contract/leitstand/uebersicht.ts';
import { texts } from '../../contract/texts.ts';

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
  if (query.isError) {
    return (
      <div role="alert">
        <p className="leitstand-refusal">
          {query.error instanceof Error ? query.error.message : leitstandTexts.loadFailed}
        </p>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          {leitstandTexts.retry}
        </button>
      </div>
    );
  }
  return <p className="hint">{texts.app.loading}</p>;
}
