import { useEffect, useRef } from "react";
import { isAbort } from "./client.ts";
import { log } from "./log.ts";

/**
 * Runs `task` now and then `intervalMs` after each run ends (never two at
 * once) while `active`. The signal aborts the run in flight when polling
 * stops. A run that throws is logged and polling goes on (spec §8).
 */
export function usePoll(task: (signal: AbortSignal) => Promise<void>, intervalMs: number, active: boolean): void {
  const latest = useRef(task);
  useEffect(() => {
    latest.current = task;
  });

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        await latest.current(controller.signal);
      } catch (error) {
        if (!isAbort(error)) log.warn("Polling failed", error);
      }
      if (!controller.signal.aborted) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [active, intervalMs]);
}
