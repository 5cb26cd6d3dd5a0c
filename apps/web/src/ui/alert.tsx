import clsx from "clsx";
import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";

/** A red error banner; role="alert" so it is announced when it appears. */
export function ErrorAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="alert"
      className={clsx(
        "flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive-muted px-4 py-3 text-sm text-foreground",
        className,
      )}
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
      <div>{children}</div>
    </div>
  );
}
