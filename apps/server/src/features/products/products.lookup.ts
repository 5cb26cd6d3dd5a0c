import type { ProductLookup } from "@glide/contracts";
import { parseBarcode, parseVariableMeasure } from "@glide/contracts";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { productBarcodes, products } from "../../db/schema/index.ts";
import { notFound, unprocessable } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { barcodesColumn, toProduct } from "./products.service.ts";
import { homeRatesToday } from "./products.vat.ts";

/**
 * Resolves a scanned code to its product; a Swedish variable-measure label
 * also gives its price or weight. The cart looks codes up the same way
 * (scanning.ts). The product's jämförpris is the one the scanned thing has:
 * for a weight label the price per kilogram (weighed goods are priced per
 * kilogram), for a price label none (the label's amount is not known).
 */
export async function lookupProduct(opts: { db: Db | Tx; code: string }): Promise<ProductLookup> {
  const parsed = parseBarcode(opts.code);
  if (!parsed)
    throw unprocessable("code: not a valid EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14 (check digit)", "invalid_barcode");
  const rateToday = await homeRatesToday(opts.db);
  const find = async (gtin14: string) => {
    const [row] = await opts.db
      .select({ product: products, barcodes: barcodesColumn })
      .from(productBarcodes)
      .innerJoin(products, eq(products.id, productBarcodes.productId))
      .where(eq(productBarcodes.gtin14, gtin14));
    return row ? toProduct(row.product, row.barcodes, rateToday) : null;
  };
  const exact = await find(parsed.gtin14);
  if (exact) return { product: exact, code: parsed.raw, measure: null, line_price: exact.price };

  const variable = parseVariableMeasure(parsed.raw);
  const item = variable ? await find(parseBarcode(variable.itemCode)!.gtin14) : null;
  if (!variable || !item) throw notFound(`No product has barcode ${parsed.raw}`, "unknown_barcode");
  if (variable.measure.kind === "price") {
    const price = fromOre(variable.measure.priceOre);
    const product = { ...item, comparison_price: null };
    return { product, code: parsed.raw, measure: { kind: "price", price }, line_price: price };
  }
  const grams = variable.measure.grams;
  // The product's price is per kilogram; round the line to whole öre.
  const lineOre = Math.round((Math.round(item.price * 100) * grams) / 1000);
  return {
    product: { ...item, comparison_price: { price: item.price, unit: "kg" } },
    code: parsed.raw,
    measure: { kind: "weight", weight_grams: grams },
    line_price: fromOre(lineOre),
  };
}
