import type { NetContentUnit, Product, productInputSchema, productUpdateSchema, VatCategory } from "@glide/contracts";
import { comparisonPriceAnswer, displayGtin, isNetContentUnit, isPantCode, netContentProblem } from "@glide/contracts";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { productBarcodes, products } from "../../db/schema/index.ts";
import { conflict, fieldError, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit, recordUpdate } from "../audit/audit.ts";
import { plannedBarcodes } from "./barcode-store.ts";
import { categoryOf, homeRatesToday, inputVatCategory, type RateToday } from "./products.vat.ts";

type CreateInput = z.output<typeof productInputSchema>;
type UpdateInput = z.output<typeof productUpdateSchema>;
type ProductRow = typeof products.$inferSelect;

/** All barcodes of a product, primary first, in the same query as the product. */
export const barcodesColumn = sql<string[]>`coalesce((
  select array_agg(${productBarcodes.gtin14} order by ${productBarcodes.isPrimary} desc, ${productBarcodes.position})
  from ${productBarcodes} where ${productBarcodes.productId} = ${products.id}), '{}')`;

/** How the audit log names a product: `Product "Mjölk 1 l" (SKU MJ-1)`. */
const productName = (p: Product) => `${named("Product", p.name)} (SKU ${p.sku})`;

const scaled = (v: number | null, by: number) => (v === null ? null : v / by);

/** A row's net content and unit as the API gives them (null for none). */
export function netContentOf(row: Pick<ProductRow, "netContentMilli" | "netContentUnit">): {
  net_content: number | null;
  net_content_unit: NetContentUnit | null;
} {
  const unit = row.netContentUnit !== null && isNetContentUnit(row.netContentUnit) ? row.netContentUnit : null;
  return { net_content: unit === null ? null : scaled(row.netContentMilli, 1000), net_content_unit: unit };
}

export function toProduct(row: ProductRow, gtins: string[], rateToday: RateToday): Product {
  const barcodes = gtins.map(displayGtin);
  const rate = rateToday(categoryOf(row));
  const content = netContentOf(row);
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    category: row.category,
    brand: row.brand,
    price: fromOre(row.priceOre),
    vat_category: categoryOf(row),
    vat_rate: rate === null ? null : rate / 100,
    barcode: barcodes[0] ?? null,
    barcodes,
    image_url: row.imageUrl,
    is_active: row.isActive,
    weight: scaled(row.weightMg, 1000),
    length: scaled(row.lengthMm, 10),
    width: scaled(row.widthMm, 10),
    height: scaled(row.heightMm, 10),
    ...content,
    comparison_price: comparisonPriceAnswer(row.priceOre, content.net_content, content.net_content_unit),
    pant_code: row.pantCode !== null && isPantCode(row.pantCode) ? row.pantCode : null,
    age_limit: row.ageLimit,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Column values from API fields; only the fields present are set (an absent
 * one is left out, not cleared). The VAT category is the one the input's
 * vat_category or vat_rate resolved to (inputVatCategory).
 */
export function productColumns(
  input: UpdateInput,
  vatCategory: VatCategory | undefined,
): Partial<typeof products.$inferInsert> {
  const scaled = <T extends number | null | undefined>(v: T, by: number) =>
    (typeof v === "number" ? Math.round(v * by) : v) as T;
  const cols: Partial<typeof products.$inferInsert> = {
    sku: input.sku,
    name: input.name,
    description: input.description,
    category: input.category,
    brand: input.brand,
    priceOre: scaled(input.price, 100),
    vatCategory,
    imageUrl: input.image_url,
    isActive: input.is_active,
    weightMg: scaled(input.weight, 1000),
    lengthMm: scaled(input.length, 10),
    widthMm: scaled(input.width, 10),
    heightMm: scaled(input.height, 10),
    netContentMilli: scaled(input.net_content, 1000),
    netContentUnit: input.net_content_unit,
    pantCode: input.pant_code,
    ageLimit: input.age_limit,
  };
  return Object.fromEntries(Object.entries(cols).filter(([, v]) => v !== undefined));
}

export async function getProduct(db: Db | Tx, id: string, rateToday?: RateToday): Promise<Product> {
  const [row] = await db
    .select({ product: products, barcodes: barcodesColumn })
    .from(products)
    .where(eq(products.id, id));
  if (!row) throw notFound(`Product ${id} not found`);
  return toProduct(row.product, row.barcodes, rateToday ?? (await homeRatesToday(db)));
}

/** Both net content fields or neither, on what the product will have: a 422 naming the one missing. */
function assertNetContent(input: UpdateInput, current?: Product) {
  const problem = netContentProblem(input, current);
  if (problem) throw fieldError(problem.path, problem.message);
}

async function assertSkuFree(tx: Db | Tx, sku: string, exceptId?: string) {
  const [taken] = await tx
    .select({ name: products.name, sku: products.sku })
    .from(products)
    // Both sides lower-cased by PostgreSQL, as the unique index is: JavaScript folds Σ and İ otherwise.
    .where(and(sql`lower(${products.sku}) = lower(${sku})`, exceptId ? ne(products.id, exceptId) : undefined));
  if (taken) {
    const message = `SKU ${sku} is already used by "${taken.name}" (SKU ${taken.sku}); choose another SKU`;
    throw fieldError("sku", message, 409, "duplicate_sku");
  }
}

async function assertBarcodesFree(tx: Db | Tx, gtins: string[], exceptId?: string) {
  if (gtins.length === 0) return;
  const [taken] = await tx
    .select({ gtin: productBarcodes.gtin14, name: products.name, sku: products.sku })
    .from(productBarcodes)
    .innerJoin(products, eq(products.id, productBarcodes.productId))
    .where(and(inArray(productBarcodes.gtin14, gtins), exceptId ? ne(productBarcodes.productId, exceptId) : undefined))
    .limit(1);
  if (taken) {
    const message = `Barcode ${displayGtin(taken.gtin)} already belongs to "${taken.name}" (SKU ${taken.sku}); remove it there first`;
    throw fieldError("barcodes", message, 409, "duplicate_barcode");
  }
}

async function writeBarcodes(tx: Tx, productId: string, gtins: string[]) {
  await tx.delete(productBarcodes).where(eq(productBarcodes.productId, productId));
  if (gtins.length === 0) return;
  await tx
    .insert(productBarcodes)
    .values(gtins.map((gtin14, i) => ({ gtin14, productId, isPrimary: i === 0, position: i })));
}

/**
 * A unique index caught what the checks above could not: another request
 * wrote the same SKU or barcode at the same moment. Now that it is written,
 * the checks find it and name the product.
 */
function explainConflict(
  db: Db,
  claimed: { sku?: string | undefined; gtins?: string[] | undefined },
  exceptId?: string,
) {
  return async (err: unknown): Promise<never> => {
    if (!isUniqueViolation(err)) throw err;
    if (claimed.sku !== undefined) await assertSkuFree(db, claimed.sku, exceptId);
    if (claimed.gtins) await assertBarcodesFree(db, claimed.gtins, exceptId);
    throw conflict("The SKU or a barcode was just taken by another product; reload and try again", "duplicate");
  };
}

/** `defaultVatCategory` (product/default_vat_category) is the VAT category of a product created without one. */
export async function createProduct(opts: {
  db: Db;
  actor: AdminActor;
  input: CreateInput;
  defaultVatCategory: VatCategory;
}): Promise<Product> {
  assertPlatformAdmin(opts.actor, "change products");
  const { input } = opts;
  assertNetContent(input);
  const gtins = plannedBarcodes(input, []) ?? [];
  return opts.db
    .transaction(async (tx) => {
      const rateToday = await homeRatesToday(tx);
      const vatCategory = inputVatCategory(input, rateToday) ?? opts.defaultVatCategory;
      await assertSkuFree(tx, input.sku);
      await assertBarcodesFree(tx, gtins);
      const [row] = await tx
        .insert(products)
        .values({
          ...productColumns(input, vatCategory),
          sku: input.sku,
          name: input.name,
          priceOre: Math.round(input.price * 100),
        })
        .returning();
      await writeBarcodes(tx, row!.id, gtins);
      const product = toProduct(row!, gtins, rateToday);
      await recordAudit(tx, {
        actor: opts.actor,
        action: "product.create",
        entityType: "product",
        entityId: product.id,
        summary: `${productName(product)} created`,
        after: product,
      });
      return product;
    })
    .catch(explainConflict(opts.db, { sku: input.sku, gtins }));
}

export async function updateProduct(opts: {
  db: Db;
  actor: AdminActor;
  id: string;
  input: UpdateInput;
}): Promise<Product> {
  assertPlatformAdmin(opts.actor, "change products");
  const { id, input } = opts;
  return opts.db
    .transaction(async (tx) => {
      const [existing] = await tx
        .select({ product: products, barcodes: barcodesColumn })
        .from(products)
        .where(eq(products.id, id))
        .for("update");
      if (!existing) throw notFound(`Product ${id} not found`);
      const rateToday = await homeRatesToday(tx);
      const before = toProduct(existing.product, existing.barcodes, rateToday);
      assertNetContent(input, before);
      const vatCategory = inputVatCategory(input, rateToday, existing.product);
      if (input.sku !== undefined) await assertSkuFree(tx, input.sku, id);
      const gtins = plannedBarcodes(input, existing.barcodes);
      if (gtins) {
        await assertBarcodesFree(tx, gtins, id);
        await writeBarcodes(tx, id, gtins);
      }
      await tx
        .update(products)
        .set({ ...productColumns(input, vatCategory), updatedAt: sql`now()` })
        .where(eq(products.id, id));
      const after = await getProduct(tx, id, rateToday);
      await recordUpdate(tx, {
        actor: opts.actor,
        action: "product.update",
        entityType: "product",
        entityId: id,
        label: productName(after),
        before,
        after,
      });
      return after;
    })
    .catch(explainConflict(opts.db, { sku: input.sku, gtins: plannedBarcodes(input, []) }, id));
}

export async function deleteProduct(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  assertPlatformAdmin(opts.actor, "change products");
  await opts.db.transaction(async (tx) => {
    const before = await getProduct(tx, opts.id);
    const deleted = await tx.delete(products).where(eq(products.id, opts.id)).returning({ id: products.id });
    // Another request deleted it between the two statements.
    if (deleted.length === 0) throw notFound(`Product ${opts.id} not found`);
    await recordAudit(tx, {
      actor: opts.actor,
      action: "product.delete",
      entityType: "product",
      entityId: opts.id,
      summary: `${productName(before)} deleted`,
      before,
    });
  });
}

export async function countProducts(db: Db): Promise<number> {
  return db.$count(products);
}
