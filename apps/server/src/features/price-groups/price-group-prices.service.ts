import type { PriceGroupPrice, StorePriceImportReport } from "@glide/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { priceGroupPrices } from "../../db/schema/index.ts";
import { notFound } from "../../platform/errors.ts";
import { fromOre, toOre } from "../../platform/money.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";
import { applyPriceImport, planPriceImport, pricesCsv } from "../store-prices/price-list.csv.ts";
import {
  allPrices,
  currentPrices,
  describePrice,
  listPrices,
  type PriceTable,
  productFor,
  toStorePrice,
} from "../store-prices/price-list.ts";
import { groupFor } from "./price-groups.service.ts";

/**
 * A price group's prices, listed, set, removed and moved as CSV like a
 * store's own (the shared price-list code). Whoever reads the group reads
 * its prices; only platform admins change them.
 */

const GROUP_PRICES: PriceTable = {
  table: priceGroupPrices,
  owner: priceGroupPrices.groupId,
  productId: priceGroupPrices.productId,
  priceOre: priceGroupPrices.priceOre,
  updatedAt: priceGroupPrices.updatedAt,
};

type Opts = { db: Db; actor: AdminActor; groupId: string };

export async function listPriceGroupPrices(
  opts: Opts & { query: { search?: string | undefined; limit: number; offset: number } },
): Promise<{ items: PriceGroupPrice[]; total: number }> {
  const group = await groupFor(opts.db, opts.actor, opts.groupId);
  return listPrices(opts.db, GROUP_PRICES, group.id, opts.query);
}

export async function exportPriceGroupPricesCsv(opts: Opts): Promise<string> {
  const group = await groupFor(opts.db, opts.actor, opts.groupId);
  return pricesCsv(await allPrices(opts.db, GROUP_PRICES, group.id));
}

const rowOf = (groupId: string, productId: string) =>
  and(eq(priceGroupPrices.groupId, groupId), eq(priceGroupPrices.productId, productId));

/** What the audit log keeps of a group's price. */
const snapshot = (groupId: string, productId: string, priceOre: number) => ({
  group_id: groupId,
  product_id: productId,
  price: fromOre(priceOre),
});

/** Sets the group's price of a product; the same price again changes nothing. */
export async function setPriceGroupPrice(opts: Opts & { productId: string; price: number }): Promise<PriceGroupPrice> {
  assertPlatformAdmin(opts.actor, "change price groups");
  const priceOre = toOre(opts.price);
  return opts.db.transaction(async (tx) => {
    const group = await groupFor(tx, opts.actor, opts.groupId);
    const product = await productFor(tx, opts.productId);
    const [old] = await tx
      .select({ priceOre: priceGroupPrices.priceOre, updatedAt: priceGroupPrices.updatedAt })
      .from(priceGroupPrices)
      .where(rowOf(group.id, product.id))
      .for("update");
    const catalogueOre = product.priceOre;
    if (old?.priceOre === priceOre) return toStorePrice({ ...product, productId: product.id, catalogueOre, ...old });
    const [row] = await tx
      .insert(priceGroupPrices)
      .values({ groupId: group.id, productId: product.id, priceOre })
      .onConflictDoUpdate({
        target: [priceGroupPrices.groupId, priceGroupPrices.productId],
        set: { priceOre, updatedAt: sql`now()` },
      })
      .returning();
    await recordAudit(tx, {
      actor: opts.actor,
      action: "price_group.price_update",
      entityType: "price_group_price",
      entityId: `${group.id}/${product.id}`,
      summary: `Price of ${named("product", product.name)} (SKU ${product.sku}) in ${named("price group", group.name)} changed from ${
        old ? describePrice(old.priceOre) : `the catalogue's ${describePrice(catalogueOre)}`
      } to ${describePrice(priceOre)}`,
      before: old ? snapshot(group.id, product.id, old.priceOre) : null,
      after: snapshot(group.id, product.id, priceOre),
    });
    return toStorePrice({ ...product, catalogueOre, ...row!, productId: product.id });
  });
}

/** Removes the group's price of a product: its stores take the catalogue's again. 404 when it had none. */
export async function deletePriceGroupPrice(opts: Opts & { productId: string }): Promise<void> {
  assertPlatformAdmin(opts.actor, "change price groups");
  await opts.db.transaction(async (tx) => {
    const group = await groupFor(tx, opts.actor, opts.groupId);
    const product = await productFor(tx, opts.productId);
    const [row] = await tx.delete(priceGroupPrices).where(rowOf(group.id, product.id)).returning();
    if (!row) throw notFound(`${named("Price group", group.name)} has no price for ${product.name}`);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "price_group.price_delete",
      entityType: "price_group_price",
      entityId: `${group.id}/${product.id}`,
      summary: `Price of ${named("product", product.name)} (SKU ${product.sku}) in ${named("price group", group.name)} removed (was ${describePrice(row.priceOre)})`,
      before: snapshot(group.id, product.id, row.priceOre),
      after: null,
    });
  });
}

/** Sets the group's prices from CSV, as a store's: a dry run reports per row; applying takes every row or none. */
export async function importPriceGroupPricesCsv(opts: Opts & { csv: string; dryRun: boolean }) {
  const { db } = opts;
  assertPlatformAdmin(opts.actor, "change price groups");
  const group = await groupFor(db, opts.actor, opts.groupId);
  const plan = await planPriceImport(db, opts.csv, await currentPrices(db, GROUP_PRICES, group.id), opts.dryRun);
  const { report } = plan;
  if (opts.dryRun) return report;
  await db.transaction(async (tx) => {
    await applyPriceImport(tx, GROUP_PRICES, group.id, plan, (productId, priceOre) => ({
      groupId: group.id,
      productId,
      priceOre,
    }));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "price_group.import",
      entityType: "price_group",
      entityId: group.id,
      summary: `Prices of ${named("price group", group.name)} imported from CSV: ${report.set} set, ${report.removed} removed, ${report.unchanged} unchanged`,
      after: { group_id: group.id, ...counts(report) },
    });
  });
  return report;
}

const counts = (r: StorePriceImportReport) => ({
  set: r.set,
  removed: r.removed,
  unchanged: r.unchanged,
  rows: r.rows.length,
});
