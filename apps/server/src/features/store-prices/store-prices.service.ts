import type { StorePrice } from "@glide/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { storePrices, stores } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre, toOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";
import { describePrice, listPrices, type PriceTable, productFor, toStorePrice } from "./price-list.ts";

/**
 * A store's own prices over the catalogue's. Admins who see a store read and
 * change its prices: platform admins any store, store admins their own
 * (assertCanManageStore, before the store is looked up, so a store admin
 * learns nothing of stores that are not theirs). A scan in the store uses the
 * store's price from the next scan on.
 */

export type Store = { id: string; name: string };

/** The store of a request after the caller's right to it: 403 for a store that is not theirs, 404 for none. */
export async function storeFor(db: Db | Tx, actor: AdminActor, storeId: string): Promise<Store> {
  assertCanManageStore(actor, storeId);
  const [store] = await db.select({ id: stores.id, name: stores.name }).from(stores).where(eq(stores.id, storeId));
  if (!store) throw notFound(`Store ${storeId} not found`);
  return store;
}

/** The store_prices table, as the shared price-list code reads it. */
export const STORE_PRICES: PriceTable = {
  table: storePrices,
  owner: storePrices.storeId,
  productId: storePrices.productId,
  priceOre: storePrices.priceOre,
  updatedAt: storePrices.updatedAt,
};

/** The store's overrides by product name (then SKU), filtered by name or SKU, a page at a time. */
export async function listStorePrices(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  query: { search?: string | undefined; limit: number; offset: number };
}): Promise<{ items: StorePrice[]; total: number }> {
  const store = await storeFor(opts.db, opts.actor, opts.storeId);
  return listPrices(opts.db, STORE_PRICES, store.id, opts.query);
}

const rowOf = (storeId: string, productId: string) =>
  and(eq(storePrices.storeId, storeId), eq(storePrices.productId, productId));

/** What the audit log keeps of an override. */
const snapshot = (storeId: string, productId: string, priceOre: number) => ({
  store_id: storeId,
  product_id: productId,
  price: fromOre(priceOre),
});

/** Sets the store's price of a product, adding the override when there was none. */
export async function setStorePrice(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  productId: string;
  price: number;
}): Promise<StorePrice> {
  const priceOre = toOre(opts.price);
  return opts.db.transaction(async (tx) => {
    const store = await storeFor(tx, opts.actor, opts.storeId);
    const product = await productFor(tx, opts.productId);
    const [old] = await tx
      .select({ priceOre: storePrices.priceOre, updatedAt: storePrices.updatedAt })
      .from(storePrices)
      .where(rowOf(store.id, product.id))
      .for("update");
    const catalogueOre = product.priceOre;
    // The same price again is no change: the row, its time and the log stay as they were.
    if (old?.priceOre === priceOre) return toStorePrice({ ...product, productId: product.id, catalogueOre, ...old });
    const [row] = await tx
      .insert(storePrices)
      .values({ storeId: store.id, productId: product.id, priceOre })
      .onConflictDoUpdate({
        target: [storePrices.storeId, storePrices.productId],
        set: { priceOre, updatedAt: sql`now()` },
      })
      .returning();
    await recordAudit(tx, {
      actor: opts.actor,
      action: "store_price.update",
      entityType: "store_price",
      entityId: `${store.id}/${product.id}`,
      storeId: store.id,
      summary: `Price of ${named("product", product.name)} (SKU ${product.sku}) in ${named("store", store.name)} changed from ${
        old ? describePrice(old.priceOre) : `the catalogue's ${describePrice(catalogueOre)}`
      } to ${describePrice(priceOre)}`,
      before: old ? snapshot(store.id, product.id, old.priceOre) : null,
      after: snapshot(store.id, product.id, priceOre),
    });
    return toStorePrice({ ...product, catalogueOre, ...row! });
  });
}

/** Removes the store's price of a product: a scan there uses the catalogue's price again. 404 when it had none. */
export async function deleteStorePrice(opts: { db: Db; actor: AdminActor; storeId: string; productId: string }) {
  await opts.db.transaction(async (tx) => {
    const store = await storeFor(tx, opts.actor, opts.storeId);
    const product = await productFor(tx, opts.productId);
    const [row] = await tx.delete(storePrices).where(rowOf(store.id, product.id)).returning();
    if (!row) throw notFound(`${named("Store", store.name)} has no price of its own for ${product.name}`);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "store_price.delete",
      entityType: "store_price",
      entityId: `${store.id}/${product.id}`,
      storeId: store.id,
      summary: `Price of ${named("product", product.name)} (SKU ${product.sku}) in ${named("store", store.name)} removed (was ${describePrice(row.priceOre)}; the catalogue's ${describePrice(product.priceOre)} applies)`,
      before: snapshot(store.id, product.id, row.priceOre),
      after: null,
    });
  });
}
