import type { Setting } from "@glide/contracts";
import { Pencil } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { type Control, fromPercent, optionsWith, toPercent } from "./setting-editors.ts";
import { formatValueInline } from "./setting-format.ts";
import { useUpdateSetting } from "./use-settings.ts";

interface InlineValueProps {
  setting: Setting;
  control: Control;
  draft: string | undefined;
  onDraftChange: (draft: string | undefined) => void;
}

const isPercent = (control: Control) => control.kind === "percent" || control.kind === "percent-number";

/** What the input shows for a value: percents for fractions, the value's text otherwise. */
function toText(control: Control, value: unknown): string {
  if (isPercent(control) && typeof value === "number") return String(toPercent(value));
  return value === null || value === undefined ? "" : String(value);
}

/** The value a text stands for; text that is not a number is sent as it is, for the server to say why. */
function fromText(control: Control, text: string): unknown {
  if (control.kind === "text") return text;
  if (control.kind === "select" && !control.numeric) return text;
  const n = text.trim() === "" ? Number.NaN : Number(text);
  if (!Number.isFinite(n)) return text.trim();
  return isPercent(control) ? fromPercent(n) : n;
}

/** The server's reason for refusing the value, to show beside it. */
function reasonOf(error: unknown): string {
  if (!(error instanceof ApiError)) return "Failed to save setting";
  return error.errors[0]?.message ?? error.detail;
}

/**
 * A value edited in place (spec §4): the value is a button; pressing it opens
 * an input holding a draft. A changed draft is saved with Save (or Enter) and
 * thrown away with Cancel (or Escape).
 */
export function InlineValue({ setting, control, draft, onDraftChange }: InlineValueProps) {
  const update = useUpdateSetting();
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const returnFocus = useRef(false);
  const editing = draft !== undefined;

  // Focus moves into the input when editing starts, and back to the value when it ends.
  useEffect(() => {
    if (editing) field.current?.focus();
    else if (returnFocus.current) opener.current?.focus();
    returnFocus.current = false;
  }, [editing]);

  const shown = formatValueInline(setting.category, setting.key, setting.value);
  if (!editing) {
    return (
      <button
        ref={opener}
        type="button"
        onClick={() => onDraftChange(toText(control, setting.value))}
        className="group -mx-2 inline-flex max-w-full items-center gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-accent hover:text-accent-foreground"
      >
        <span className="sr-only">{`Change ${setting.key}, now `}</span>
        <span className="min-w-0 break-words tabular-nums">{shown}</span>
        <Pencil
          aria-hidden="true"
          className="size-3.5 shrink-0 text-muted-foreground opacity-70 group-hover:opacity-100"
        />
      </button>
    );
  }

  const next = fromText(control, draft);
  const changed = JSON.stringify(next) !== JSON.stringify(setting.value);
  const close = () => {
    returnFocus.current = true;
    setError(null);
    onDraftChange(undefined);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return close();
    setError(null);
    update.mutate(
      { category: setting.category, key: setting.key, value: next },
      {
        onSuccess: () => {
          toast.success("Setting saved successfully");
          close();
        },
        onError: (failure) => {
          toast.error("Failed to save setting");
          setError(reasonOf(failure));
          field.current?.focus();
        },
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    close();
  };

  const aria = {
    id: inputId,
    "aria-label": `New value of ${setting.key}${isPercent(control) ? " (%)" : ""}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  } as const;
  return (
    <form noValidate onSubmit={onSubmit} onKeyDown={onKeyDown} className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {control.kind === "select" ? (
          <Select
            ref={field}
            {...aria}
            className="min-w-0 flex-1 basis-40"
            value={draft}
            onChange={(event) => onDraftChange(event.target.value)}
          >
            {optionsWith(control.options, draft).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        ) : (
          <div className="relative min-w-0 flex-1 basis-32">
            <Input
              ref={field}
              {...aria}
              type={control.kind === "text" ? "text" : "number"}
              inputMode={control.kind === "text" ? undefined : "decimal"}
              step={control.kind === "text" ? undefined : isPercent(control) ? 0.01 : "any"}
              maxLength={control.kind === "text" ? control.maxLength : undefined}
              className={isPercent(control) ? "pr-8" : undefined}
              value={draft}
              onChange={(event) => onDraftChange(event.target.value)}
            />
            {isPercent(control) ? (
              <span
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground"
              >
                %
              </span>
            ) : null}
          </div>
        )}
        <Button type="submit" size="sm" disabled={!changed || update.isPending} aria-busy={update.isPending}>
          Save
        </Button>
        <Button variant="outline" size="sm" onClick={close}>
          Cancel
        </Button>
      </div>
      {changed ? (
        <Badge variant="outline" className="w-fit">
          Draft, not saved
        </Badge>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
