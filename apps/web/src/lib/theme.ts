import { useSyncExternalStore } from "react";
import { STORAGE_KEYS } from "./storage-keys.ts";

export type Theme = "light" | "dark";

function readStoredTheme(): Theme {
  try {
    return localStorage.getItem(STORAGE_KEYS.theme) === "dark" ? "dark" : "light";
  } catch {
    return "light";
  }
}

let current: Theme = readStoredTheme();
const listeners = new Set<() => void>();

function apply(theme: Theme): void {
  document.documentElement.classList.toggle("dark", theme === "dark");
}

function update(theme: Theme): void {
  current = theme;
  apply(theme);
  for (const listener of listeners) listener();
}

/** Applies the saved theme; called once before the first render. */
export function initTheme(): void {
  apply(current);
  // Another tab changed the theme: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEYS.theme) update(readStoredTheme());
  });
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this page only.
  }
  update(theme);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => "light",
  );
}
