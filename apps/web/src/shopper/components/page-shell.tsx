import type { ReactNode } from "react";
import { sv } from "../sv.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

/**
 * The frame of every shopper page: the brand and the theme switch on top,
 * one narrow column that fits a 360 px phone, room for the home indicator.
 */
export function PageShell({ children, tagline }: { children: ReactNode; tagline?: string }) {
  return (
    <div className="mx-auto flex min-h-svh w-full max-w-md flex-col px-4 pb-[max(1.5rem,env(safe-area-inset-bottom))]">
      <header className="flex items-center justify-between gap-3 py-3">
        <div className="min-w-0">
          <p className="text-2xl font-extrabold tracking-tight text-primary">{sv.brand}</p>
          {tagline && <p className="text-sm text-muted-foreground">{tagline}</p>}
        </div>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 flex-col gap-6">{children}</main>
    </div>
  );
}
