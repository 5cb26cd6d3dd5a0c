import type { PublicStore } from "@glide/contracts";
import { useEffect, useState } from "react";
import { isAbort, messageOf, shopperApi } from "../lib/client.ts";

export type StoreLookup =
  | { state: "none" }
  | { state: "loading" }
  | { state: "found"; store: PublicStore }
  | { state: "failed"; message: string };

/** The store a QR code at the door names (an id or "demo"), from the public endpoint; nothing without an id. */
export function usePublicStore(storeId: string | null, failedText: string): StoreLookup {
  const [lookup, setLookup] = useState<StoreLookup>(storeId ? { state: "loading" } : { state: "none" });

  useEffect(() => {
    if (!storeId) {
      setLookup({ state: "none" });
      return;
    }
    const controller = new AbortController();
    setLookup({ state: "loading" });
    shopperApi.store(storeId, controller.signal).then(
      (store) => setLookup({ state: "found", store }),
      (error: unknown) => {
        if (!isAbort(error)) setLookup({ state: "failed", message: messageOf(error, failedText) });
      },
    );
    return () => controller.abort();
  }, [storeId, failedText]);

  return lookup;
}

/** "Storgatan 1, 123 45 Staden", leaving out what the store has not filled in. */
export function storeAddress(store: PublicStore): string {
  const town = [store.postal_code, store.city].filter(Boolean).join(" ");
  return [store.address, town].filter(Boolean).join(", ");
}
