import type { PublicStore } from "@glide/contracts";
import { useEffect, useState } from "react";
import { isAbort, messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { sv } from "../sv.ts";

export type StoreLookup =
  | { state: "none" }
  | { state: "loading" }
  | { state: "found"; store: PublicStore }
  | { state: "failed"; message: string };

/** What a store link may name: a store's id (a UUID) or the demo store. */
const STORE_ID = /^(demo|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The store a QR code at the door names (an id or "demo"), from the public endpoint; nothing without an id. */
export function usePublicStore(storeId: string | null, failedText: string): StoreLookup {
  const [lookup, setLookup] = useState<StoreLookup>(storeId ? { state: "loading" } : { state: "none" });

  useEffect(() => {
    if (!storeId) {
      setLookup({ state: "none" });
      return;
    }
    // A mistyped or cut-off link is told in words at once, without asking the server.
    if (!STORE_ID.test(storeId)) {
      setLookup({ state: "failed", message: sv.landing.storeInvalid });
      return;
    }
    const controller = new AbortController();
    setLookup({ state: "loading" });
    shopperApi.store(storeId, controller.signal).then(
      (store) => setLookup({ state: "found", store }),
      (error: unknown) => {
        if (isAbort(error)) return;
        // A 400 is the link's fault whatever the server's words; other failures keep its Swedish detail.
        const invalid = error instanceof ShopperApiError && error.status === 400;
        setLookup({ state: "failed", message: invalid ? sv.landing.storeInvalid : messageOf(error, failedText) });
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
