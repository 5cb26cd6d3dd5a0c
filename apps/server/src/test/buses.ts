import { setTimeout as sleep } from "node:timers/promises";
import type { EventBus } from "../platform/event-bus.ts";

/** A bus that delivers nothing: as an instance that was reconnecting when a change was announced. */
export const deafBus: EventBus = {
  kind: "postgres",
  publish: async () => {},
  publishMany: async () => {},
  subscribe: () => () => {},
  ready: async () => {},
  close: async () => {},
};

/** Waits until `check` holds, as a copy told over the bus comes round; fails after 5 s. */
export async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5_000) throw new Error("not within 5 s");
    await sleep(20);
  }
}
