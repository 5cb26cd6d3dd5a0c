import clsx from "clsx";
import type { StatusMessage } from "./use-cart.ts";

/**
 * The scan's answer under the scanner: green '✓ … tillagd!', red '✗ …'. The
 * box is always there (empty when quiet) so screen readers announce each new
 * text, and the page does not jump.
 */
export function StatusLine({ message }: { message: StatusMessage | null }) {
  return (
    <div role="status" aria-live="polite" aria-atomic="true">
      {message && (
        <p
          data-tone={message.tone}
          className={clsx(
            "rounded-xl px-4 py-3 text-base font-semibold",
            message.tone === "error" ? "bg-destructive-muted text-destructive" : "bg-success-muted text-success",
          )}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
