import clsx from "clsx";
import { LoaderCircle } from "lucide-react";

export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={clsx("flex flex-col items-center justify-center gap-3 p-6", className)}>
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary" />
      <span className="text-base text-muted-foreground">{label}</span>
    </div>
  );
}
