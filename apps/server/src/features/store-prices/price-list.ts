import type { StorePrice } from "@glide/contracts";
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../../db/client.ts";
import { products } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";

/**
 * What a store's own prices and a price group's prices share: a table of
 * (owner, product, price) over the catalogue's, listed, exported and imported
 * the same way. Each feature says which table and owner; the rules of who may
 * and what the audit log says stay with it.
 */

/** A price table: store_prices by store_id, or price_group_prices by group_id. */
export type PriceTable = {
  table: PgTable;
  owner: PgColumn;
  productId: PgColumn;
  priceOre: PgColumn;
  updatedAt: PgColumn;
};

/** One row of a price table as the API shows it. */
type Row = { productId: string; sku: string; name: string; catalogueOre: number; priceOre: number; updatedAt: Date };

/** The columns of one row as the API shows it. */
export const priceColumns = (t: PriceTable) => ({
  productId: products.id,
  sku: products.sku,
  name: products.name,
  catalogueOre: products.priceOre,
  priceOre: t.priceOre,
  updatedAt: t.updatedAt,
});

export const toStorePrice = (row: Row): StorePrice => ({
  product_id: row.productId,
  sku: row.sku,
  name: row.name,
  catalogue_price: fromOre(row.catalogueOre),
  price: fromOre(row.priceOre),
  updated_at: row.updatedAt.toISOString(),
});

/** "12.90 kr": how the audit log writes a price. */
export const describePrice = (ore: number) => `${(ore / 100).toFixed(2)} kr`;

/** The text searched for, as a LIKE pattern that matches it literally (% and _ included). */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const byName = [asc(sql`lower(${products.name})`), asc(sql`lower(${products.sku})`)];

/** The owner's prices by product name (then SKU), filtered by name or SKU, a page at a time. */
export async function listPrices(
  db: Db,
  t: PriceTable,
  ownerId: string,
  query: { search?: string | undefined; limit: number; offset: number },
): Promise<{ items: StorePrice[]; total: number }> {
  const conditions: SQL[] = [eq(t.owner, ownerId)];
  const search = query.search?.trim();
  if (search) {
    const like = likePattern(search);
    conditions.push(sql`(${products.name} ilike ${like} or ${products.sku} ilike ${like})`);
  }
  const where = and(...conditions);
  const joined = <T extends Record<string, unknown>>(fields: T) =>
    db
      .select(fields as never)
      .from(t.table)
      .innerJoin(products, eq(products.id, t.productId))
      .where(where);
  const [rows, [count]] = await Promise.all([
    joined(priceColumns(t))
      .orderBy(...byName)
      .limit(query.limit)
      .offset(query.offset),
    joined({ total: sql<number>`count(*)::int` }),
  ]);
  return { items: (rows as Row[]).map(toStorePrice), total: (count as { total: number } | undefined)?.total ?? 0 };
}

/** Every price of the owner by name, as the export writes them. */
export async function allPrices(db: Db, t: PriceTable, ownerId: string): Promise<StorePrice[]> {
  const rows = await db
    .select(priceColumns(t) as never)
    .from(t.table)
    .innerJoin(products, eq(products.id, t.productId))
    .where(eq(t.owner, ownerId))
    .orderBy(...byName);
  return (rows as Row[]).map(toStorePrice);
}

/** The owner's prices in öre by product id, as the import compares them. */
export async function currentPrices(db: Db, t: PriceTable, ownerId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ productId: t.productId, priceOre: t.priceOre } as never)
    .from(t.table)
    .where(eq(t.owner, ownerId));
  return new Map((rows as { productId: string; priceOre: number }[]).map((r) => [r.productId, r.priceOre]));
}

/** The product a price is for: 404 for none. */
export async function productFor(tx: Db | Tx, productId: string) {
  const [product] = await tx
    .select({ id: products.id, sku: products.sku, name: products.name, priceOre: products.priceOre })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound(`Product ${productId} not found`);
  return product;
}
