import clsx from "clsx";
import { type ComponentProps, type ReactNode, useEffect, useId, useState } from "react";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { Slider } from "../../ui/slider.tsx";
import { type Control, fromPercent, optionsWith, toPercent } from "./setting-editors.ts";

/*
 * The controls of Simple Mode, one per kind of Control. Each carries its
 * label, its value text and the server's problem with it, tied together for
 * screen readers.
 */

interface ControlProps {
  control: Control;
  /** What the label says; `context` comes first for screen readers only (the map row it sits in). */
  label: string;
  context?: string | undefined;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string | undefined;
  className?: string;
}

const finite = (text: string): number | null => {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
};

/**
 * A number typed as text: the input keeps what is typed ("12." on the way to
 * "12.5"); the value is a number when the text is one, else the text itself,
 * which the server then refuses with its reason.
 */
function NumberText(
  props: { value: unknown; onChange: (value: unknown) => void; percent: boolean } & Omit<
    ComponentProps<"input">,
    "value" | "onChange"
  >,
) {
  const { value, onChange, percent, ...inputProps } = props;
  const toText = (v: unknown) => (typeof v === "number" ? String(percent ? toPercent(v) : v) : String(v ?? ""));
  const fromText = (text: string): unknown => {
    const n = finite(text);
    if (n === null) return text.trim();
    return percent ? fromPercent(n) : n;
  };
  const [text, setText] = useState(() => toText(value));
  // A value set from outside (Advanced Mode) replaces the text; one typed here does not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the value only.
  useEffect(() => {
    if (JSON.stringify(fromText(text)) !== JSON.stringify(value)) setText(toText(value));
  }, [value]);
  return (
    <Input
      type="number"
      inputMode="decimal"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange(fromText(event.target.value));
      }}
      {...inputProps}
    />
  );
}

function ErrorText({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {error}
    </p>
  );
}

function SliderControl(props: ControlProps & { control: Extract<Control, { kind: "percent" | "range" }> }) {
  const { control, label, context, value, onChange, error, className } = props;
  const labelId = useId();
  const errorId = useId();
  const percent = control.kind === "percent";
  const numeric = typeof value === "number";
  const shown = numeric ? (percent ? toPercent(value) : value) : percent ? 0 : control.min;
  const min = percent ? 0 : control.min;
  const valueText = numeric ? `${shown}${percent ? " %" : ""}` : "Not a number";
  return (
    <div className={clsx("grid gap-2", className)}>
      <div className="flex items-baseline justify-between gap-2">
        <span id={labelId} className="text-sm leading-none font-medium">
          {context ? <span className="sr-only">{context} </span> : null}
          {label}
        </span>
        <span aria-hidden="true" className="text-sm tabular-nums text-muted-foreground">
          {valueText}
        </span>
      </div>
      <Slider
        value={Math.min(Math.max(Math.round(shown / control.step) * control.step, min), control.max)}
        onValueChange={(next) => onChange(percent ? fromPercent(next) : next)}
        min={min}
        max={control.max}
        step={control.step}
        labelledBy={labelId}
        valueText={valueText}
        describedBy={error ? errorId : undefined}
        invalid={Boolean(error)}
      />
      <div aria-hidden="true" className="flex justify-between text-xs text-muted-foreground tabular-nums">
        <span>{`${min}${percent ? " %" : ""}`}</span>
        <span>{`${control.max}${percent ? " %" : ""}`}</span>
      </div>
      <ErrorText id={errorId} error={error} />
    </div>
  );
}

/** One control of Simple Mode with its label and the server's problem beside it. */
export function ControlField(props: ControlProps) {
  const { control, label, context, value, onChange, error, className } = props;
  const id = useId();
  const errorId = useId();
  if (control.kind === "percent" || control.kind === "range") return <SliderControl {...props} control={control} />;

  const aria = { "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined } as const;
  let input: ReactNode;
  if (control.kind === "select") {
    const current = value === undefined || value === null ? "" : String(value);
    input = (
      <Select
        id={id}
        {...aria}
        value={current}
        onChange={(event) => onChange(control.numeric ? Number(event.target.value) : event.target.value)}
      >
        {current === "" ? (
          <option value="" disabled hidden>
            Select...
          </option>
        ) : null}
        {optionsWith(control.options, value).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    );
  } else if (control.kind === "text") {
    input = (
      <Input
        id={id}
        {...aria}
        maxLength={control.maxLength}
        spellCheck={false}
        value={typeof value === "string" ? value : JSON.stringify(value ?? "")}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  } else {
    const percent = control.kind === "percent-number";
    input = (
      <div className="relative">
        <NumberText
          id={id}
          {...aria}
          percent={percent}
          min={percent ? 0 : control.min}
          max={percent ? 100 : control.max}
          step={percent ? 0.01 : control.step}
          className={percent ? "pr-8" : undefined}
          value={value}
          onChange={onChange}
        />
        {percent ? (
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground"
          >
            %
          </span>
        ) : null}
      </div>
    );
  }
  return (
    <div className={clsx("grid gap-1.5", className)}>
      <Label htmlFor={id}>
        {context ? <span className="sr-only">{context} </span> : null}
        {label}
        {control.kind === "percent-number" ? <span className="sr-only"> (%)</span> : null}
      </Label>
      {input}
      <ErrorText id={errorId} error={error} />
    </div>
  );
}
