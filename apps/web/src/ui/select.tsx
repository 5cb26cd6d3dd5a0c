import clsx from "clsx";
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { controlClass } from "./input.tsx";

/** A native <select>: best for keyboards, screen readers and phones. */
export function Select({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className={clsx("relative", className)}>
      <select className={clsx(controlClass, "h-10 appearance-none pr-9")} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
