import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";

/** What a confirmed action needs of its mutation (TanStack Query's, without variables). */
export interface ConfirmableAction<Result> {
  mutate: (
    variables: undefined,
    callbacks: { onSuccess: (result: Result) => void; onError: (error: unknown) => void },
  ) => void;
  isPending: boolean;
}

export interface ActionTexts<Result> {
  /** Said when the failure holds no words of its own (the network). */
  failure: string;
  /** The line once done, from the server's answer. */
  done: (result: Result) => string;
}

/**
 * The state of a visit's action that staff confirm first (let out, charge):
 * whether the confirmation is open, the problem to show, and the line that
 * says it was done, which takes the focus the gone button had.
 */
export function useConfirmAction<Result>(action: ConfirmableAction<Result>, texts: ActionTexts<Result>) {
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const doneLine = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (done) doneLine.current?.focus();
  }, [done]);

  return {
    pending: action.isPending,
    confirming,
    setConfirming,
    problem,
    done,
    doneLine,
    /** A button's click that opens something (the confirmation, another dialog), ignored while the action runs. */
    whenIdle: (open: () => void) => unlessPending(action.isPending, open),
    /** The confirmation's yes: runs the action. */
    confirm: () => runAction(action, texts, { setProblem, setDone }),
    /** Ends the panel with a line of the caller's (another way to settle, such as a write-off). */
    finish: (line: string) => setDone(line),
  };
}

export type ConfirmAction = ReturnType<typeof useConfirmAction>;

/** A click handler that calls `open` only while nothing runs. */
export function unlessPending(pending: boolean, open: () => void): () => void {
  return () => {
    if (!pending) open();
  };
}

/** Runs the action: the last problem goes; then the line saying it was done, or the problem, the server's words first. */
export function runAction<Result>(
  action: ConfirmableAction<Result>,
  texts: ActionTexts<Result>,
  show: { setProblem: (problem: string | null) => void; setDone: (line: string) => void },
) {
  show.setProblem(null);
  action.mutate(undefined, {
    onSuccess: (result) => show.setDone(texts.done(result)),
    onError: (failure) => show.setProblem(errorMessage(failure, texts.failure)),
  });
}
