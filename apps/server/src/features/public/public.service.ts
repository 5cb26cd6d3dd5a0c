import type { PublicStore } from "@glide/contracts";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { settings, stores } from "../../db/schema/index.ts";
import { fieldError, notFound } from "../../platform/errors.ts";

/** The shopper followed a link or QR code whose store id is not one. */
export const STORE_LINK_INVALID = "Länken leder inte till någon butik. Skanna QR-koden vid butikens dörr igen.";

/** The store "demo" names: the one the demo start marks (store/demo_store_id), or the oldest active store. */
async function demoStoreId(db: Db): Promise<string> {
  const [marked] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.category, "store"), eq(settings.key, "demo_store_id")));
  const [oldest] = await db
    .select({ id: stores.id })
    .from(stores)
    .where(eq(stores.isActive, true))
    .orderBy(asc(stores.createdAt), asc(stores.name))
    .limit(1);
  const id = typeof marked?.value === "string" ? marked.value : (oldest?.id ?? "");
  if (!id) throw notFound("Det finns ingen demobutik.", "unknown_store");
  return id;
}

/**
 * What the shopper's landing page may know of a store, by the id in its link
 * or "demo": its name and where it is. A link that names no store is told in
 * Swedish, not as a field name.
 */
export async function publicStore(db: Db, storeId: string): Promise<PublicStore> {
  if (storeId !== "demo" && !z.uuid().safeParse(storeId).success) {
    throw fieldError("store_id", STORE_LINK_INVALID, 400, "invalid_store_id");
  }
  const id = storeId === "demo" ? await demoStoreId(db) : storeId;
  const [store] = await db
    .select({
      id: stores.id,
      name: stores.name,
      address: stores.address,
      postal_code: stores.postalCode,
      city: stores.city,
      is_active: stores.isActive,
    })
    .from(stores)
    .where(eq(stores.id, id));
  if (!store) throw notFound("Butiken finns inte.", "unknown_store");
  return store;
}
