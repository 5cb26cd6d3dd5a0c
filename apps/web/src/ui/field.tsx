import clsx from "clsx";
import { type ReactNode, useId } from "react";
import { Label } from "./label.tsx";

/** What the control inside a Field must carry so that its error and hint are read with it. */
export interface FieldControlProps {
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

interface FieldProps {
  label: string;
  /** Receives the id to put on the control, so the label is always tied to it, and its aria attributes. */
  children: (id: string, control: FieldControlProps) => ReactNode;
  hint?: string;
  /** What is wrong with the value, shown under the control in red. */
  error?: string | undefined;
  className?: string;
}

export function Field({ label, children, hint, error, className }: FieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className={clsx("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children(id, { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined })}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
