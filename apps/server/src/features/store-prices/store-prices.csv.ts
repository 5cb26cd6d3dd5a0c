import type { StorePriceImportReport } from "@glide/contracts";
import type { Db } from "../../db/client.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";
import { applyPriceImport, planPriceImport, pricesCsv } from "./price-list.csv.ts";
import { allPrices, currentPrices } from "./price-list.ts";
import { STORE_PRICES, storeFor } from "./store-prices.service.ts";

/** The store's overrides as CSV (UTF-8 with a BOM, header row), by name like the list. */
export async function exportStorePricesCsv(opts: { db: Db; actor: AdminActor; storeId: string }): Promise<string> {
  const store = await storeFor(opts.db, opts.actor, opts.storeId);
  return pricesCsv(await allPrices(opts.db, STORE_PRICES, store.id));
}

/**
 * Sets a store's prices from CSV, matched by SKU (as the database's lower()
 * folds it, like the products' unique index); an empty price removes the
 * store's price. The dry run reports what each row would do. Applying takes
 * every row in one transaction, or none while any row is rejected.
 */
export async function importStorePricesCsv(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  csv: string;
  dryRun: boolean;
}): Promise<StorePriceImportReport> {
  const { db } = opts;
  const store = await storeFor(db, opts.actor, opts.storeId);
  const plan = await planPriceImport(db, opts.csv, await currentPrices(db, STORE_PRICES, store.id), opts.dryRun);
  const { report } = plan;
  if (opts.dryRun) return report;
  await db.transaction(async (tx) => {
    await applyPriceImport(tx, STORE_PRICES, store.id, plan, (productId, priceOre) => ({
      storeId: store.id,
      productId,
      priceOre,
    }));
    // One entry per import with its counts: a file of 5,000 rows is one event, not 5,000.
    await recordAudit(tx, {
      actor: opts.actor,
      action: "store_price.import",
      entityType: "store_price",
      entityId: store.id,
      storeId: store.id,
      summary: `Prices of ${named("store", store.name)} imported from CSV: ${report.set} set, ${report.removed} removed, ${report.unchanged} unchanged`,
      after: {
        store_id: store.id,
        set: report.set,
        removed: report.removed,
        unchanged: report.unchanged,
        rows: report.rows.length,
      },
    });
  });
  return report;
}
