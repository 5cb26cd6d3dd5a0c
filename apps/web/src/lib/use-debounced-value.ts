import { useEffect, useState } from "react";

/** How long typing must pause before a search box asks the server: one request per pause, not per key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value` once it has stayed the same for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
