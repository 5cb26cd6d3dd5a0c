import clsx from "clsx";
import type { ComponentProps } from "react";

export const controlClass =
  "w-full rounded-md border border-input bg-card px-3 text-sm text-foreground placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={clsx(controlClass, "h-10", className)} {...props} />;
}
