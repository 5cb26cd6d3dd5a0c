import { useEffect, useState } from "react";
import { shopperApi } from "./client.ts";

/** Asked once per page load: the server's answer does not change while it runs. */
let answer: Promise<boolean> | undefined;

/**
 * Whether the server runs with DEV_TOOLS, so the spec's development aids
 * (Quick Dev Login, "Test: Öppna Dörr") show only where they work.
 */
export function useDevTools(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    answer ??= shopperApi.config().then(
      (config) => config.dev_tools,
      () => false,
    );
    let live = true;
    void answer.then((value) => {
      if (live) setOn(value);
    });
    return () => {
      live = false;
    };
  }, []);
  return on;
}
