import { useEffect, useState } from "react";

/** Whole seconds until `deadline` (ms since epoch), counted from the clock so a busy phone never drifts. */
export function useSecondsLeft(deadline: number | null): number {
  const [left, setLeft] = useState(() => secondsUntil(deadline));
  useEffect(() => {
    if (deadline === null) return;
    const tick = () => setLeft(secondsUntil(deadline));
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return left;
}

function secondsUntil(deadline: number | null): number {
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}
