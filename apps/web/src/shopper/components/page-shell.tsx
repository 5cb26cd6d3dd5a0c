import clsx from "clsx";
import type { ReactNode } from "react";
import { sv } from "../sv.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

/**
 * The frame of every shopper page: the brand and the theme switch on top,
 * one narrow column that fits a 360 px phone, room for the home indicator.
 */
export function PageShell({
  children,
  tagline,
  actions,
  className,
  taglineIsTitle = false,
}: {
  children: ReactNode;
  tagline?: string;
  /** Buttons beside the theme switch (the cart). */
  actions?: ReactNode;
  className?: string;
  /** The tagline is the page's h1 (the shopping pages, whose header says what the page is). */
  taglineIsTitle?: boolean;
}) {
  return (
    <div
      className={clsx(
        "mx-auto flex min-h-svh w-full max-w-md flex-col px-4 pb-[max(1.5rem,env(safe-area-inset-bottom))]",
        className,
      )}
    >
      <header className="flex items-center justify-between gap-3 py-3">
        <div className="min-w-0">
          <p className="text-2xl font-extrabold tracking-tight text-primary">{sv.brand}</p>
          {tagline &&
            (taglineIsTitle ? (
              <h1 className="text-sm font-normal text-muted-foreground">{tagline}</h1>
            ) : (
              <p className="text-sm text-muted-foreground">{tagline}</p>
            ))}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <ThemeToggle />
          {actions}
        </div>
      </header>
      <main className="flex flex-1 flex-col gap-6">{children}</main>
    </div>
  );
}
