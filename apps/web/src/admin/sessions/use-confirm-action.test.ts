import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api.ts";
import { type ConfirmableAction, runAction, unlessPending, useConfirmAction } from "./use-confirm-action.ts";

interface Answer {
  total: number;
}

const texts = { failure: "Failed to charge the card on file", done: (answer: Answer) => `Charged ${answer.total} kr.` };

/** An action that answers at once, as `answer` says. */
function answering(answer: { ok: Answer } | { error: unknown }, isPending = false): ConfirmableAction<Answer> {
  return {
    isPending,
    mutate: (_, callbacks) => {
      if ("ok" in answer) callbacks.onSuccess(answer.ok);
      else callbacks.onError(answer.error);
    },
  };
}

/** Runs the action and records what the panel is told to show, in order. */
function run(action: ConfirmableAction<Answer>) {
  const shown: string[] = [];
  runAction(action, texts, {
    setProblem: (problem) => shown.push(`problem ${problem}`),
    setDone: (line) => shown.push(`done ${line}`),
  });
  return shown;
}

describe("a confirmed action", () => {
  it("clears the last problem, then says what was done from the server's answer", () => {
    expect(run(answering({ ok: { total: 125 } }))).toEqual(["problem null", "done Charged 125 kr."]);
  });

  it("shows the server's words when it refused", () => {
    const refused = new ApiError(409, "The card was declined", "card_declined");
    expect(run(answering({ error: refused }))).toEqual(["problem null", "problem The card was declined"]);
  });

  it("falls back on its own words when the failure has none (the network)", () => {
    expect(run(answering({ error: new TypeError("fetch failed") }))).toEqual([
      "problem null",
      "problem Failed to charge the card on file",
    ]);
  });

  it("sends no variables", () => {
    const mutate = vi.fn();
    runAction({ isPending: false, mutate }, texts, { setProblem: () => undefined, setDone: () => undefined });
    expect(mutate).toHaveBeenCalledWith(undefined, expect.anything());
  });
});

describe("the panel's buttons", () => {
  it("open their dialog only while nothing runs", () => {
    const open = vi.fn();
    unlessPending(true, open)();
    expect(open).not.toHaveBeenCalled();
    unlessPending(false, open)();
    expect(open).toHaveBeenCalledOnce();
  });
});

/** Renders a component using the hook once (no DOM: the server renderer) and gives back what it returned. */
function renderAction(action: ConfirmableAction<Answer>) {
  let result: ReturnType<typeof useConfirmAction<Answer>> | undefined;
  function Probe() {
    result = useConfirmAction(action, texts);
    return null;
  }
  renderToString(createElement(Probe));
  if (!result) throw new Error("the probe did not render");
  return result;
}

describe("useConfirmAction", () => {
  it("starts closed, with no problem and nothing done", () => {
    const action = renderAction(answering({ ok: { total: 1 } }));
    expect(action).toMatchObject({ pending: false, confirming: false, problem: null, done: null });
  });

  it("runs the mutation on confirm, and tells whether it is running", () => {
    const mutate = vi.fn();
    expect(renderAction({ isPending: true, mutate }).pending).toBe(true);
    renderAction({ isPending: false, mutate }).confirm();
    expect(mutate).toHaveBeenCalledOnce();
  });

  it("ignores the buttons while the action runs", () => {
    const open = vi.fn();
    renderAction(answering({ ok: { total: 1 } }, true)).whenIdle(open)();
    expect(open).not.toHaveBeenCalled();
    renderAction(answering({ ok: { total: 1 } }, false)).whenIdle(open)();
    expect(open).toHaveBeenCalledOnce();
  });
});
