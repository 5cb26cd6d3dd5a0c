import clsx from "clsx";
import type { ComponentProps } from "react";
import { controlClass } from "./input.tsx";

export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={clsx(controlClass, "min-h-20 py-2", className)} {...props} />;
}
