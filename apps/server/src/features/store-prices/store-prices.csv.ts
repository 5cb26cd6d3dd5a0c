import {
  STORE_PRICE_CSV_COLUMNS,
  type StorePriceImportReport,
  type StorePriceImportRow,
  storePriceUpdateSchema,
} from "@glide/contracts";
import { stringify } from "csv-stringify/sync";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.ts";
import { products, storePrices } from "../../db/schema/index.ts";
import { unprocessable } from "../../platform/errors.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";
import { cellText, csvCell, csvRecords } from "../products/products.csv-format.ts";
import { storeFor, storePriceColumns, toStorePrice } from "./store-prices.service.ts";

const BOM = "\uFEFF";
/** Past about this many values in one IN list the planner may leave the unique index for a slower plan. */
const LOOKUP_BATCH = 1000;

/** The store's overrides as CSV (UTF-8 with a BOM, header row), by name like the list. */
export async function exportStorePricesCsv(opts: { db: Db; actor: AdminActor; storeId: string }): Promise<string> {
  const store = await storeFor(opts.db, opts.actor, opts.storeId);
  const rows = await opts.db
    .select(storePriceColumns)
    .from(storePrices)
    .innerJoin(products, eq(products.id, storePrices.productId))
    .where(eq(storePrices.storeId, store.id))
    .orderBy(asc(sql`lower(${products.name})`), asc(sql`lower(${products.sku})`));
  const lines = rows.map((row) => {
    const p = toStorePrice(row);
    return [csvCell(p.sku), csvCell(p.name), p.catalogue_price.toFixed(2), p.price.toFixed(2)];
  });
  // A BOM so spreadsheet programs read å, ä and ö as UTF-8.
  return BOM + stringify([[...STORE_PRICE_CSV_COLUMNS], ...lines]);
}

/** The file's records; a file that is not CSV, or lacks sku or price, or names other columns, is 422. */
function parseCsv(csv: string): Record<string, string>[] {
  const records = csvRecords(csv);
  const header = Object.keys(records[0]!);
  const unknown = header.filter((h) => !(STORE_PRICE_CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) {
    throw unprocessable(
      `file: unknown column ${unknown.join(", ")}; columns are sku and price (name and catalogue_price are ignored)`,
      "invalid_csv",
    );
  }
  for (const required of ["sku", "price"]) {
    if (!header.includes(required)) throw unprocessable(`file: the header needs a ${required} column`, "invalid_csv");
  }
  return records;
}

/** A price cell as kronor: a decimal comma reads as a point; anything else not a number is left for the schema to refuse. */
function priceOf(cell: string): unknown {
  const t = cell.trim();
  const number = Number(/^-?\d+,\d+$/.test(t) ? t.replace(",", ".") : t);
  return Number.isFinite(number) ? number : t;
}

type Plan = StorePriceImportRow & { productId?: string; priceOre?: number | null };

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
  const records = parseCsv(opts.csv);

  const plans: Plan[] = records.map((record, i) => {
    const line = i + 2;
    const sku = cellText(record.sku?.trim() ?? "") || null;
    const plan: Plan = { line, sku, action: "reject", errors: [] };
    if (!sku) plan.errors.push("sku: Missing. Give the row the SKU of a product");
    const cell = record.price?.trim() ?? "";
    if (cell === "") plan.priceOre = null;
    else {
      const parsed = storePriceUpdateSchema.safeParse({ price: priceOf(cell) });
      if (parsed.success) plan.priceOre = Math.round(parsed.data.price * 100);
      else plan.errors.push(`price: ${parsed.error.issues[0]!.message}`);
    }
    return plan;
  });

  // SKUs compare as PostgreSQL's lower() folds them, as the products' unique index does.
  const skus = [...new Set(plans.flatMap((p) => (p.sku ? [p.sku] : [])))];
  const found = new Map<string, { id: string; key: string }>();
  for (let i = 0; i < skus.length; i += LOOKUP_BATCH) {
    const chunk = JSON.stringify(skus.slice(i, i + LOOKUP_BATCH));
    const rows = await queryRows<{ sku: string; id: string; key: string }>(
      db,
      sql`select t.s as sku, p.id, lower(p.sku) as key from jsonb_array_elements_text(${chunk}::jsonb) as t(s)
          join products p on lower(p.sku) = lower(t.s)`,
    );
    for (const { sku, ...product } of rows) found.set(sku, product);
  }
  const current = new Map(
    (
      await db
        .select({ productId: storePrices.productId, priceOre: storePrices.priceOre })
        .from(storePrices)
        .where(eq(storePrices.storeId, store.id))
    ).map((r) => [r.productId, r.priceOre]),
  );

  // A product may appear once in a file: two prices for it would leave it to the order of the rows.
  const lineOf = new Map<string, number>();
  for (const p of plans) {
    if (!p.sku) continue;
    const product = found.get(p.sku);
    if (!product) {
      p.errors.push(`sku: No product has SKU ${p.sku}`);
      continue;
    }
    const seen = lineOf.get(product.key);
    if (seen) p.errors.push(`sku: ${p.sku} is also on line ${seen}`);
    else lineOf.set(product.key, p.line);
    p.productId = product.id;
    if (p.errors.length) continue;
    const had = current.get(product.id);
    if (p.priceOre === null) p.action = had === undefined ? "keep" : "remove";
    else p.action = had === p.priceOre ? "keep" : "set";
  }

  const rows = plans.map(({ line, sku, action, errors }) => ({ line, sku, action, errors }));
  const count = (action: StorePriceImportRow["action"]) => rows.filter((r) => r.action === action).length;
  const report: StorePriceImportReport = {
    dry_run: opts.dryRun,
    set: count("set"),
    removed: count("remove"),
    unchanged: count("keep"),
    rejected: count("reject"),
    rows,
  };
  if (opts.dryRun) return report;
  if (report.rejected > 0) {
    const first = rows.find((r) => r.action === "reject")!;
    throw unprocessable(
      `Nothing was imported: ${report.rejected} row${report.rejected === 1 ? " is" : "s are"} rejected (first: line ${first.line}: ${first.errors.join("; ")}). Fix them and import again.`,
      "import_rejected",
    );
  }

  await db.transaction(async (tx) => {
    const sets = plans.filter((p) => p.action === "set");
    for (let i = 0; i < sets.length; i += 500) {
      await tx
        .insert(storePrices)
        .values(
          sets.slice(i, i + 500).map((p) => ({ storeId: store.id, productId: p.productId!, priceOre: p.priceOre! })),
        )
        .onConflictDoUpdate({
          target: [storePrices.storeId, storePrices.productId],
          set: { priceOre: sql`excluded.price_ore`, updatedAt: sql`now()` },
        });
    }
    const removes = plans.filter((p) => p.action === "remove").map((p) => p.productId!);
    for (let i = 0; i < removes.length; i += LOOKUP_BATCH) {
      await tx
        .delete(storePrices)
        .where(
          and(eq(storePrices.storeId, store.id), inArray(storePrices.productId, removes.slice(i, i + LOOKUP_BATCH))),
        );
    }
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
        rows: rows.length,
      },
    });
  });
  return report;
}
