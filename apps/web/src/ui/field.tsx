import clsx from "clsx";
import { type ReactNode, useId } from "react";
import { Label } from "./label.tsx";

interface FieldProps {
  label: string;
  /** Receives the id to put on the control, so the label is always tied to it. */
  children: (id: string) => ReactNode;
  hint?: string;
  className?: string;
}

export function Field({ label, children, hint, className }: FieldProps) {
  const id = useId();
  return (
    <div className={clsx("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}
