import clsx from "clsx";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "dev";

/** One look for the shopper's buttons and button-like links: full width, at least 48 px tall for a thumb. */
export function buttonClass(variant: ButtonVariant = "primary", className?: string): string {
  return clsx(
    "inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-xl px-5 py-3 text-base font-semibold",
    "transition-colors disabled:cursor-not-allowed disabled:opacity-60",
    variant === "primary" && "bg-primary text-primary-foreground hover:bg-primary/90",
    variant === "secondary" && "bg-secondary text-secondary-foreground hover:bg-secondary/80",
    variant === "ghost" && "text-foreground underline-offset-4 hover:underline",
    variant === "dev" && "border-2 border-dashed bg-transparent text-muted-foreground hover:bg-muted",
    className,
  );
}
