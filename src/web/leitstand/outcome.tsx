import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/** What the last action did, or why it was refused: one line under the page's title. */
export function Outcome({ notice, problem }: { notice: string | null; problem: string | null }) {
  return (
    <>
      <p role="status" className="leitstand-notice">
        {notice}
      </p>
      {problem && (
        <p role="alert" className="leitstand-refusal">
          {problem}
        </p>
      )}
    </>
  );
}

/** The message of a refused or failed call (the client's errors carry the server's German text). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A page's writes and what became of them, for `<Outcome {...outcome} />`: `after(message)` gives a
 * mutation's callbacks — the German answer in the status line, or the refusal as an alert, then the page's
 * data read again (`refresh`: those under `queryKey`, every query without one). A refused write is read
 * again too: the refusal is often that someone else changed it first.
 */
export function useOutcome(queryKey?: QueryKey) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const done = (message: string | null) => {
    setProblem(null);
    setNotice(message);
  };
  const failed = (error: unknown) => {
    setNotice(null);
    setProblem(messageOf(error));
  };
  const refresh = () => void queryClient.invalidateQueries(queryKey ? { queryKey } : undefined);
  return {
    notice,
    problem,
    done,
    failed,
    refresh,
    after: <Answer,>(message: (answer: Answer) => string | null) => ({
      onSuccess: (answer: Answer) => done(message(answer)),
      onError: failed,
      onSettled: refresh,
    }),
  };
}
