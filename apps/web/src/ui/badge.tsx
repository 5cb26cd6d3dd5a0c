import clsx from "clsx";
import type { ComponentProps } from "react";

const variants = {
  default: "border-transparent bg-primary text-primary-foreground",
  secondary: "border-transparent bg-secondary text-secondary-foreground",
  success: "border-transparent bg-success text-success-foreground",
  destructive: "border-transparent bg-destructive text-destructive-foreground",
  outline: "text-foreground",
  /** Needs someone to act: a red edge on a pale red ground, text in the body colour (readable in both themes). */
  attention: "border-destructive bg-destructive-muted text-foreground",
  /** Settled and out of the way: a dashed edge, quiet text. */
  muted: "border-dashed border-input text-muted-foreground",
} as const;

export type BadgeVariant = keyof typeof variants;

interface BadgeProps extends ComponentProps<"span"> {
  variant?: BadgeVariant;
}

export function Badge({ variant = "default", className, ...props }: BadgeProps) {
  return (
    <span
      className={clsx(
        "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold",
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
