import { Readable } from "node:stream";
import {
  displayGtin,
  type ImportReport,
  isVatCategory,
  netContentProblem,
  PRODUCT_CSV_COLUMNS,
  type productInputSchema,
  productUpdateSchema,
  productVatCategory,
  type VatCategory,
} from "@glide/contracts";
import { stringify } from "csv-stringify/sync";
import { and, asc, gt, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryRows } from "../../db/client.ts";
import { productBarcodes, products } from "../../db/schema/index.ts";
import { unprocessable } from "../../platform/errors.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { plannedBarcodes } from "./barcode-store.ts";
import { csvCell, MISSING_SKU, parseCsv, rowErrors, toInput } from "./products.csv-format.ts";
import { productFilter } from "./products.search.ts";
import { barcodesColumn, netContentOf, productColumns, toProduct } from "./products.service.ts";
import { homeRatesToday } from "./products.vat.ts";

const BOM = "\uFEFF";
const BATCH = 1000;
/** Past about this many values in one IN list the planner may leave the unique indexes for a slower plan. */
const LOOKUP_BATCH = 1000;
type Column = (typeof PRODUCT_CSV_COLUMNS)[number];

/**
 * All products, or those matching the list's search and category, as CSV
 * (UTF-8, header row). The filter and the first page are read before the
 * stream is handed over, so a database that is away is a 503 in our shape,
 * never a 200 with a file cut short.
 */
export async function exportProductsCsv(opts: {
  db: Db;
  search?: string | undefined;
  category?: string | undefined;
}): Promise<Readable> {
  const where = await productFilter(opts.db, opts);
  const rateToday = await homeRatesToday(opts.db);
  const page = (after: string | undefined) =>
    opts.db
      .select({ product: products, barcodes: barcodesColumn })
      .from(products)
      .where(and(where, after ? gt(products.id, after) : undefined))
      .orderBy(asc(products.id))
      .limit(BATCH);
  const first = await page(undefined);
  async function* rows() {
    // A BOM so spreadsheet programs read å, ä and ö as UTF-8.
    yield BOM + stringify([PRODUCT_CSV_COLUMNS as unknown as string[]]);
    let current = first;
    while (current.length > 0) {
      yield stringify(
        current.map(({ product, barcodes }) => {
          const p = toProduct(product, barcodes, rateToday);
          const values: Record<Column, unknown> = { ...p, barcodes: p.barcodes.join("|") };
          return PRODUCT_CSV_COLUMNS.map((c) => csvCell(values[c]));
        }),
      );
      if (current.length < BATCH) return;
      current = await page(current[current.length - 1]!.product.id);
    }
  }
  return Readable.from(rows());
}

/** Each SKU's key for comparing: lower(sku) as the database computes it, in one round trip. */
async function skuKeys(db: Db, skus: string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(skus)];
  if (distinct.length === 0) return new Map();
  const rows = await queryRows<{ sku: string; key: string }>(
    db,
    sql`select s as sku, lower(s) as key from jsonb_array_elements_text(${JSON.stringify(distinct)}::jsonb) as t(s)`,
  );
  return new Map(rows.map((r) => [r.sku, r.key]));
}

type RowPlan = {
  line: number;
  sku: string | null;
  input?: z.output<typeof productInputSchema>;
  gtins?: string[] | undefined;
  existingId?: string;
  /** What the row's vat_category or vat_rate names; none keeps an existing product's and gives a new one the default. */
  vatCategory?: VatCategory | undefined;
  errors: string[];
};

/**
 * Import products from CSV, matched by SKU. The dry run reports what each
 * row would do. Applying writes in one transaction: everything or nothing.
 * Rejected rows stop the import unless `skipRejected` says to leave them out.
 */
export async function importProductsCsv(opts: {
  db: Db;
  actor: AdminActor;
  csv: string;
  dryRun: boolean;
  skipRejected: boolean;
  /** A new product's VAT category when its row names none: product/default_vat_category. */
  defaultVatCategory: VatCategory;
}): Promise<ImportReport> {
  assertPlatformAdmin(opts.actor, "change products");
  const { db } = opts;
  const records = parseCsv(opts.csv);

  const plans: RowPlan[] = records.map((record, i) => {
    const line = i + 2;
    const parsed = productUpdateSchema.safeParse(toInput(record));
    const sku = record.sku?.trim() || null;
    if (!parsed.success) return { line, sku, errors: rowErrors(parsed.error.issues, sku) };
    const input = parsed.data as z.output<typeof productInputSchema>;
    const errors = [
      input.sku ? null : MISSING_SKU,
      input.name ? null : "name: Name is required",
      input.price === undefined ? "price: Price is required" : null,
    ].filter((e): e is string => e !== null);
    return { line, sku, input, gtins: plannedBarcodes(input, []), errors };
  });

  // SKUs compare as PostgreSQL's lower() folds them, as its unique index does (JavaScript folds Σ and İ otherwise).
  const keyOf = await skuKeys(
    db,
    plans.flatMap((p) => (p.errors.length || !p.input ? [] : [p.input.sku])),
  );

  // Within the file: a SKU or a barcode may appear once.
  const skuLine = new Map<string, number>();
  const gtinLine = new Map<string, number>();
  for (const p of plans) {
    if (p.errors.length || !p.input) continue;
    const key = keyOf.get(p.input.sku)!;
    const seen = skuLine.get(key);
    if (seen) p.errors.push(`sku: ${p.input.sku} is also on line ${seen}`);
    else skuLine.set(key, p.line);
    for (const g of p.gtins ?? []) {
      const other = gtinLine.get(g);
      if (other) p.errors.push(`barcode: ${displayGtin(g)} is also on line ${other}`);
      else gtinLine.set(g, p.line);
    }
  }

  // Against the database: which SKUs exist, and who owns the barcodes.
  type Existing = { id: string; vatCategory: string; netContentMilli: number | null; netContentUnit: string | null };
  const existing = new Map<string, Existing>();
  const owners = new Map<string, { id: string; name: string; sku: string }>();
  const skus = [...skuLine.keys()];
  const gtins = [...gtinLine.keys()];
  for (let i = 0; i < skus.length; i += LOOKUP_BATCH) {
    const chunk = skus.slice(i, i + LOOKUP_BATCH);
    const rows = await db
      .select({
        id: products.id,
        vatCategory: products.vatCategory,
        netContentMilli: products.netContentMilli,
        netContentUnit: products.netContentUnit,
        key: sql<string>`lower(${products.sku})`,
      })
      .from(products)
      .where(inArray(sql`lower(${products.sku})`, chunk));
    for (const r of rows) existing.set(r.key, r);
  }
  for (let i = 0; i < gtins.length; i += LOOKUP_BATCH) {
    const rows = await db
      .select({ gtin: productBarcodes.gtin14, id: products.id, name: products.name, sku: products.sku })
      .from(productBarcodes)
      .innerJoin(products, sql`${products.id} = ${productBarcodes.productId}`)
      .where(inArray(productBarcodes.gtin14, gtins.slice(i, i + LOOKUP_BATCH)));
    for (const r of rows) owners.set(r.gtin, r);
  }
  const rateToday = await homeRatesToday(db);
  for (const p of plans) {
    if (p.errors.length || !p.input) continue;
    const found = existing.get(keyOf.get(p.input.sku)!);
    const id = found?.id;
    if (id) p.existingId = id;
    const current = found && isVatCategory(found.vatCategory) ? found.vatCategory : undefined;
    const vat = productVatCategory(p.input, rateToday, current);
    if (vat.error !== undefined) p.errors.push(`vat_rate: ${vat.error}`);
    else p.vatCategory = vat.category;
    // Both net content columns or neither, on what the product will have.
    const content = netContentProblem(p.input, found && netContentOf(found));
    if (content) p.errors.push(`${content.path}: ${content.message}`);
    for (const g of p.gtins ?? []) {
      const owner = owners.get(g);
      if (owner && owner.id !== id)
        p.errors.push(
          `barcode: ${displayGtin(g)} already belongs to "${owner.name}" (SKU ${owner.sku}); take it off this row or off that product`,
        );
    }
  }

  const report: ImportReport = {
    dry_run: opts.dryRun,
    created: 0,
    updated: 0,
    rejected: 0,
    rows: plans.map((p) => ({
      line: p.line,
      sku: p.sku,
      action: p.errors.length ? "reject" : p.existingId ? "update" : "create",
      errors: p.errors,
    })),
  };
  for (const r of report.rows) {
    if (r.action === "create") report.created++;
    else if (r.action === "update") report.updated++;
    else report.rejected++;
  }
  if (opts.dryRun) return report;
  if (report.rejected > 0 && !opts.skipRejected) {
    throw unprocessable(
      `Nothing was imported: ${report.rejected} row${report.rejected === 1 ? " is" : "s are"} rejected (first: line ${
        report.rows.find((r) => r.action === "reject")!.line
      }). Fix them, or import with skip_rejected=true.`,
      "import_rejected",
    );
  }

  const good = plans.filter((p) => p.errors.length === 0 && p.input);
  await db.transaction(async (tx) => {
    const creates = good.filter((p) => !p.existingId);
    for (let i = 0; i < creates.length; i += 500) {
      const chunk = creates.slice(i, i + 500);
      const inserted = await tx
        .insert(products)
        .values(
          chunk.map((p) => ({
            ...productColumns(p.input!, p.vatCategory ?? opts.defaultVatCategory),
            sku: p.input!.sku,
            name: p.input!.name,
            priceOre: Math.round(p.input!.price * 100),
          })),
        )
        .returning({ id: products.id });
      chunk.forEach((p, j) => {
        p.existingId = inserted[j]!.id;
      });
    }
    const updates = good.filter((p) => !creates.includes(p));
    for (const p of updates) {
      await tx
        .update(products)
        .set({ ...productColumns(p.input!, p.vatCategory), updatedAt: sql`now()` })
        .where(sql`${products.id} = ${p.existingId}`);
    }
    const withBarcodes = good.filter((p) => p.gtins !== undefined);
    for (let i = 0; i < withBarcodes.length; i += 1000) {
      const chunk = withBarcodes.slice(i, i + 1000);
      await tx.delete(productBarcodes).where(
        inArray(
          productBarcodes.productId,
          chunk.map((p) => p.existingId!),
        ),
      );
      const values = chunk.flatMap((p) =>
        p.gtins!.map((gtin14, k) => ({ gtin14, productId: p.existingId!, isPrimary: k === 0, position: k })),
      );
      if (values.length) await tx.insert(productBarcodes).values(values);
    }
    // One entry per import with its counts: a file of 50,000 rows is one event, not 50,000.
    await recordAudit(tx, {
      actor: opts.actor,
      action: "product.import",
      entityType: "product",
      summary: `Products imported from CSV: ${report.created} created, ${report.updated} updated, ${report.rejected} skipped`,
      after: { created: report.created, updated: report.updated, skipped: report.rejected, rows: report.rows.length },
    });
  });
  if (good.length >= 1000) {
    // After a large import the planner's statistics mislead it, and the search index keeps new entries in a
    // pending list that every search must read, until autovacuum comes by; PGlite never vacuums.
    await db.execute(sql`select gin_clean_pending_list('products_search_trgm_idx')`);
    await db.execute(sql`analyze products, product_barcodes`);
  }
  return report;
}
