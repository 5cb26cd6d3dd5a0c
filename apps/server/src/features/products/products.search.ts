import type { Product, productListQuerySchema } from "@glide/contracts";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { productBarcodes, products } from "../../db/schema/index.ts";
import { storageGtin } from "./barcode-store.ts";
import { barcodesColumn, toProduct } from "./products.service.ts";
import { homeRatesToday } from "./products.vat.ts";
import type { ProductSearch } from "./search-index.ts";

type ListQuery = z.output<typeof productListQuerySchema>;

/** The text searched for, as a LIKE pattern that matches it literally (% and _ included). */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Name, SKU or brand contains the text, or one of the product's barcodes is
 * exactly the code. The barcode is looked up first (a primary-key hit), so
 * the rest stays a union of index scans instead of a check on every row.
 */
export async function productFilter(
  db: Db | Tx,
  query: { search?: string | undefined; category?: string | undefined },
): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  const search = query.search?.trim();
  if (search) {
    const like = likePattern(search);
    const gtin = storageGtin(search);
    const owners = gtin
      ? await db.select({ id: productBarcodes.productId }).from(productBarcodes).where(eq(productBarcodes.gtin14, gtin))
      : [];
    const byBarcode = owners.length
      ? sql` or ${inArray(
          products.id,
          owners.map((o) => o.id),
        )}`
      : sql``;
    conditions.push(sql`(${products.searchText} like ${like}${byBarcode})`);
  }
  if (query.category && query.category !== "all") conditions.push(eq(products.category, query.category));
  return conditions.length ? and(...conditions) : undefined;
}

type ListAnswer = { items: Product[]; total: number };

/**
 * A search of a name, SKU or brand fragment from the instance's index: the page's ids and the count from
 * memory, the page's rows by id. Null when the index is being built, the text is a barcode (those are
 * looked up in their table), or a product on the page is gone since the index was built.
 */
async function listFromIndex(db: Db, query: ListQuery, index: ProductSearch): Promise<ListAnswer | null> {
  const search = query.search?.trim() ?? "";
  if (!search || storageGtin(search)) return null;
  const category = query.category && query.category !== "all" ? query.category : undefined;
  const found = index.find({ ...query, text: search.toLowerCase(), category });
  if (!found) return null;
  const [rows, rateToday] = await Promise.all([
    found.ids.length === 0
      ? []
      : db
          .select({ product: products, barcodes: barcodesColumn })
          .from(products)
          .where(inArray(products.id, found.ids)),
    homeRatesToday(db),
  ]);
  if (rows.length !== found.ids.length) return null;
  const byId = new Map(rows.map((r) => [r.product.id, r]));
  const items = found.ids.map((id) => {
    const row = byId.get(id)!;
    return toProduct(row.product, row.barcodes, rateToday);
  });
  return { items, total: found.total };
}

export async function listProducts(opts: { db: Db; query: ListQuery; index?: ProductSearch }): Promise<ListAnswer> {
  const { db, query } = opts;
  const indexed = opts.index && (await listFromIndex(db, query, opts.index));
  if (indexed) return indexed;
  const where = await productFilter(db, query);
  const direction = query.order === "desc" ? desc : asc;
  const sortColumn = {
    sku: sql`lower(${products.sku})`,
    name: sql`lower(${products.name})`,
    category: products.category,
    price: products.priceOre,
  }[query.sort];
  const count = () => db.$count(products, where);
  const rateToday = await homeRatesToday(db);

  if (!query.search?.trim()) {
    // Browsing: the sort index yields the page without reading the rest, and the count is an index-only scan.
    const [rows, total] = await Promise.all([
      db
        .select({ product: products, barcodes: barcodesColumn })
        .from(products)
        .where(where)
        .orderBy(direction(sortColumn), direction(products.id))
        .limit(query.limit)
        .offset(query.offset),
      count(),
    ]);
    return { items: rows.map((r) => toProduct(r.product, r.barcodes, rateToday)), total };
  }

  // Searching: the trigram index finds every match once; the page and the total both come from that one
  // pass, and only the page's rows are read in full. (Walking the sort index instead reads far more rows
  // for a common fragment, and counting separately reads the matches a second time.)
  const matches = db
    .select({ id: products.id, key: sql`${sortColumn}`.as("key"), total: sql<number>`count(*) over ()`.as("total") })
    .from(products)
    .where(where)
    .as("matches");
  const page = db
    .select({ id: matches.id, key: matches.key, total: matches.total })
    .from(matches)
    .orderBy(direction(matches.key), direction(matches.id))
    .limit(query.limit)
    .offset(query.offset)
    .as("page");
  const rows = await db
    .select({ product: products, barcodes: barcodesColumn, total: sql<number>`${page.total}::int` })
    .from(page)
    .innerJoin(products, eq(products.id, page.id))
    .orderBy(direction(page.key), direction(page.id));
  // Past the last page no row carries the total.
  const total = rows[0]?.total ?? (query.offset > 0 ? await count() : 0);
  return { items: rows.map((r) => toProduct(r.product, r.barcodes, rateToday)), total };
}

export async function listCategories(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: products.category })
    .from(products)
    .where(sql`${products.category} is not null`)
    .orderBy(asc(products.category));
  return rows.map((r) => r.category!);
}
