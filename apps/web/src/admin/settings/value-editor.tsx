import clsx from "clsx";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import type { EditorSpec } from "./setting-editors.ts";
import { NO_PROBLEMS, type ValueProblems } from "./setting-errors.ts";
import { SimpleEditor } from "./simple-editor.tsx";

export type EditorMode = "simple" | "advanced";

const pretty = (value: unknown) => JSON.stringify(value, null, 2) ?? "";

/**
 * A value being edited in either mode. Advanced Mode's text is parsed on
 * every change; text that does not parse is ignored (spec §5): `value` stays
 * the last valid one, which is what Save sends, and `jsonError` says why.
 */
export function useValueDraft(initial: unknown, hasSimpleMode: boolean) {
  const [value, setValueState] = useState(initial);
  const [mode, setModeState] = useState<EditorMode>(hasSimpleMode ? "simple" : "advanced");
  const [text, setTextState] = useState(() => pretty(initial));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  return {
    value,
    mode,
    text,
    jsonError,
    /** The person changed something since the draft began or was last reset. */
    touched,
    setValue: (next: unknown) => {
      setValueState(next);
      setTouched(true);
    },
    setText: (next: string) => {
      setTextState(next);
      setTouched(true);
      try {
        setValueState(JSON.parse(next));
        setJsonError(null);
      } catch (error) {
        setJsonError(error instanceof Error ? error.message : "it does not parse");
      }
    },
    setMode: (next: EditorMode) => {
      // The text starts from the value as it is now: the last valid one.
      if (next === "advanced") setTextState(pretty(value));
      setJsonError(null);
      setModeState(next);
    },
    /** Starts again from `next`, e.g. the override of the store just chosen. */
    reset: (next: unknown) => {
      setValueState(next);
      setTextState(pretty(next));
      setJsonError(null);
      setTouched(false);
    },
  };
}

export type ValueDraft = ReturnType<typeof useValueDraft>;

/** After a failed save, the first control with a problem takes focus (in the form this ref is on). */
export function useFocusProblem(problems: ValueProblems) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (problems === NO_PROBLEMS) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);
  return ref;
}

interface ValueEditorProps {
  draft: ValueDraft;
  /** Simple Mode's controls; null when the setting has none (Advanced Mode only). */
  editor: EditorSpec | null;
  problems: ValueProblems;
  /** Called on any change, e.g. to clear the server's problems with the previous value. */
  onEdit?: () => void;
}

/** The Simple/Advanced Mode toggle and the editor of the chosen mode, shared by both setting dialogs. */
export function ValueEditor({ draft, editor, problems, onEdit }: ValueEditorProps) {
  const textId = useId();
  const jsonErrorId = useId();
  const problemId = useId();
  const modes = [
    { mode: "simple", label: "Simple Mode", disabled: editor === null },
    { mode: "advanced", label: "Advanced Mode", disabled: false },
  ] as const;
  const advancedProblem = problems.byPath[""];
  const describedBy = [draft.jsonError ? jsonErrorId : null, advancedProblem ? problemId : null].filter(Boolean);

  return (
    <div className="grid gap-4">
      <fieldset className="flex w-fit max-w-full rounded-md border border-input bg-card p-0.5">
        <legend className="sr-only">Editor mode</legend>
        {modes.map(({ mode, label, disabled }) => (
          <Button
            key={mode}
            variant="ghost"
            size="sm"
            aria-pressed={draft.mode === mode}
            disabled={disabled}
            className={clsx(draft.mode === mode && "bg-accent text-accent-foreground")}
            onClick={() => {
              draft.setMode(mode);
              onEdit?.();
            }}
          >
            {label}
          </Button>
        ))}
      </fieldset>
      {editor === null ? <p className="text-sm text-muted-foreground">This setting is edited as JSON.</p> : null}

      {draft.mode === "simple" && editor ? (
        <SimpleEditor
          editor={editor}
          value={draft.value}
          onChange={(next) => {
            draft.setValue(next);
            onEdit?.();
          }}
          problems={problems.byPath}
        />
      ) : (
        <div className="grid gap-1.5">
          <Label htmlFor={textId}>Value (JSON)</Label>
          <Textarea
            id={textId}
            rows={10}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            className="font-mono text-xs leading-relaxed"
            aria-invalid={draft.jsonError || advancedProblem ? true : undefined}
            aria-describedby={describedBy.length > 0 ? describedBy.join(" ") : undefined}
            value={draft.text}
            onChange={(event) => {
              draft.setText(event.target.value);
              onEdit?.();
            }}
          />
          {draft.jsonError ? (
            <p id={jsonErrorId} className="text-sm text-destructive">
              {`Not valid JSON: ${draft.jsonError}. It is ignored: Save sends the last valid value.`}
            </p>
          ) : null}
          {advancedProblem ? (
            <p id={problemId} className="text-sm text-destructive">
              {advancedProblem}
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}
