import { useSyncExternalStore } from "react";

export type ShopperTheme = "dark" | "light";

/** The shopper's own choice, apart from the console's "theme": dark unless they picked light. Not a spec key. */
const THEME_KEY = "glide_theme";

function stored(): ShopperTheme {
  try {
    return localStorage.getItem(THEME_KEY) === "light" ? "light" : "dark";
  } catch {
    return "dark";
  }
}

let current: ShopperTheme = stored();
const listeners = new Set<() => void>();

/** shopper.css reads the theme from <html data-shopper-theme>; the console's .dark class is left alone. */
export function applyShopperTheme(theme: ShopperTheme = current): void {
  document.documentElement.dataset.shopperTheme = theme;
}

export function removeShopperTheme(): void {
  delete document.documentElement.dataset.shopperTheme;
}

export function setShopperTheme(theme: ShopperTheme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage unavailable: the choice lasts for this page.
  }
  current = theme;
  applyShopperTheme(theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab changed it: follow.
    if (event.key !== THEME_KEY) return;
    current = stored();
    applyShopperTheme(current);
    listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function useShopperTheme(): ShopperTheme {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => "dark",
  );
}
