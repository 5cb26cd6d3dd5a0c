import clsx from "clsx";
import { CircleCheck, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";

/** An error (announced at once) or a success note in a coloured box. */
export function Message({ tone, children }: { tone: "error" | "success"; children: ReactNode }) {
  const Icon = tone === "error" ? TriangleAlert : CircleCheck;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={clsx(
        "flex items-start gap-3 rounded-xl px-4 py-3 text-base font-medium",
        tone === "error" ? "bg-destructive-muted text-destructive" : "bg-success-muted text-success",
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>{children}</span>
    </div>
  );
}
