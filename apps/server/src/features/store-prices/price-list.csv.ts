import {
  STORE_PRICE_CSV_COLUMNS,
  type StorePrice,
  type StorePriceImportReport,
  type StorePriceImportRow,
  storePriceUpdateSchema,
} from "@glide/contracts";
import { stringify } from "csv-stringify/sync";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows, type Tx } from "../../db/client.ts";
import { unprocessable } from "../../platform/errors.ts";
import { cellText, csvCell, csvRecords } from "../products/products.csv-format.ts";
import type { PriceTable } from "./price-list.ts";

/**
 * A price list as CSV, for a store's own prices and a price group's alike:
 * the export, and the import's plan (a report per row, matched by SKU) and
 * its writes. Who may, and what the audit log says, stay with each feature.
 */

const BOM = "\uFEFF";
/** Past about this many values in one IN list the planner may leave the unique index for a slower plan. */
const LOOKUP_BATCH = 1000;

/** Prices as CSV (UTF-8 with a BOM, header row) in the order given. */
export function pricesCsv(prices: StorePrice[]): string {
  const lines = prices.map((p) => [csvCell(p.sku), csvCell(p.name), p.catalogue_price.toFixed(2), p.price.toFixed(2)]);
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

/** What an import does: the report, and the prices to set and the products whose price to remove. */
export type ImportPlan = {
  report: StorePriceImportReport;
  sets: { productId: string; priceOre: number }[];
  removes: string[];
};

/** Each row's price, or its errors. */
function rowPlans(records: Record<string, string>[]): Plan[] {
  return records.map((record, i) => {
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
}

/** The products of the SKUs, as PostgreSQL's lower() folds them (as the products' unique index does). */
async function productsBySku(db: Db, plans: Plan[]): Promise<Map<string, { id: string; key: string }>> {
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
  return found;
}

/**
 * Plans an import from CSV against the prices there are (`current`, öre by
 * product id): an empty price removes one. Applying (not a dry run) while any
 * row is rejected is 422, naming the first.
 */
export async function planPriceImport(
  db: Db,
  csv: string,
  current: Map<string, number>,
  dryRun: boolean,
): Promise<ImportPlan> {
  const plans = rowPlans(parseCsv(csv));
  const found = await productsBySku(db, plans);
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
    dry_run: dryRun,
    set: count("set"),
    removed: count("remove"),
    unchanged: count("keep"),
    rejected: count("reject"),
    rows,
  };
  if (!dryRun && report.rejected > 0) {
    const first = rows.find((r) => r.action === "reject")!;
    throw unprocessable(
      `Nothing was imported: ${report.rejected} row${report.rejected === 1 ? " is" : "s are"} rejected (first: line ${first.line}: ${first.errors.join("; ")}). Fix them and import again.`,
      "import_rejected",
    );
  }
  return {
    report,
    sets: plans.filter((p) => p.action === "set").map((p) => ({ productId: p.productId!, priceOre: p.priceOre! })),
    removes: plans.filter((p) => p.action === "remove").map((p) => p.productId!),
  };
}

/** Writes a plan's prices to the owner's table, in batches, inside the caller's transaction. */
export async function applyPriceImport(
  tx: Tx,
  t: PriceTable,
  ownerId: string,
  plan: ImportPlan,
  row: (productId: string, priceOre: number) => Record<string, unknown>,
): Promise<void> {
  for (let i = 0; i < plan.sets.length; i += 500) {
    await tx
      .insert(t.table)
      .values(plan.sets.slice(i, i + 500).map((p) => row(p.productId, p.priceOre)) as never)
      .onConflictDoUpdate({
        target: [t.owner, t.productId],
        set: { priceOre: sql`excluded.price_ore`, updatedAt: sql`now()` } as never,
      });
  }
  for (let i = 0; i < plan.removes.length; i += LOOKUP_BATCH) {
    await tx
      .delete(t.table)
      .where(and(eq(t.owner, ownerId), inArray(t.productId, plan.removes.slice(i, i + LOOKUP_BATCH))));
  }
}
