import clsx from "clsx";
import { LoaderCircle } from "lucide-react";

interface SpinnerProps {
  className?: string;
  label?: string;
}

export function Spinner({ className, label = "Loading" }: SpinnerProps) {
  return (
    <div role="status" aria-label={label} className={clsx("flex justify-center p-8", className)}>
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-muted-foreground" />
    </div>
  );
}

export function FullPageSpinner() {
  return <Spinner className="min-h-svh items-center" />;
}
