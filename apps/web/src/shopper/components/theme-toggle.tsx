import { Moon, Sun } from "lucide-react";
import { setShopperTheme, useShopperTheme } from "../lib/theme.ts";
import { sv } from "../sv.ts";

export function ThemeToggle() {
  const theme = useShopperTheme();
  const next = theme === "dark" ? "light" : "dark";
  const Icon = theme === "dark" ? Sun : Moon;
  return (
    <button
      type="button"
      onClick={() => setShopperTheme(next)}
      aria-label={next === "light" ? sv.theme.toLight : sv.theme.toDark}
      className="inline-flex size-12 items-center justify-center rounded-full text-foreground hover:bg-muted"
    >
      <Icon aria-hidden="true" className="size-6" />
    </button>
  );
}
