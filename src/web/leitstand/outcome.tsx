import { type QueryKey, type UseMutationResult, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { messageOf } from '../api/message.ts';

/** What the last action did, or why it was refused: one line under the page's title. */
export function Outcome({ notice, problem }: { notice: string | null; problem: string | null }) {
  return (
    <>
      <p role="status" className="leitstand-notice">
        {notice}
      </p>
      {problem && <Refusal>{problem}</Refusal>}
    </>
  );
}

/** A refusal or a failure as the desk shows it: one red line, announced at once. */
export function Refusal({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="leitstand-refusal">
      {children}
    </p>
  );
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
  const after = <Answer,>(message: (answer: Answer) => string | null) => ({
    onSuccess: (answer: Answer) => done(message(answer)),
    onError: failed,
    onSettled: refresh,
  });
  return {
    notice,
    problem,
    done,
    failed,
    refresh,
    after,
    /** Sends a write whose answer's German message is the outcome; the last outcome goes meanwhile. */
    send: <Answer extends { message: string }, Input>(
      mutation: UseMutationResult<Answer, Error, Input>,
      input: Input,
    ) => {
      done(null);
      mutation.mutate(
        input,
        after((answer: Answer) => answer.message),
      );
    },
  };
}

/** What `useOutcome()` gives, for the parts of a page that write. */
export type PageOutcome = ReturnType<typeof useOutcome>;
