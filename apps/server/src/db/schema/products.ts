import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** The global product database every scan in every store resolves against. */
export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    category: text("category"),
    brand: text("brand"),
    /** Öre; for weighed goods öre per kilogram. */
    priceOre: integer("price_ore").notNull(),
    /** Which VAT rate applies (contracts' VAT_CATEGORIES); the rate itself comes from vat_rates on the day of sale. */
    vatCategory: text("vat_category").notNull().default("standard"),
    imageUrl: text("image_url"),
    isActive: boolean("is_active").notNull().default(true),
    /** Milligrams (the form takes grams with three decimals). */
    weightMg: integer("weight_mg"),
    /** Millimetres (the form takes centimetres with one decimal). */
    lengthMm: integer("length_mm"),
    widthMm: integer("width_mm"),
    heightMm: integer("height_mm"),
    ageLimit: smallint("age_limit"),
    /**
     * Net content in thousandths of netContentUnit (the API takes three
     * decimals): whole numbers like the other measures, so no numeric comes
     * back as text and the jämförpris is computed exactly.
     */
    netContentMilli: integer("net_content_milli"),
    /** g, kg, ml, l or st (contracts' NET_CONTENT_UNITS); set exactly when netContentMilli is. */
    netContentUnit: text("net_content_unit"),
    /** The pant mark on the package (contracts' PANT_CODES); its amount comes from pant_amounts for the store's country. */
    pantCode: text("pant_code"),
    /** What search looks in, lower-cased once on write: one trigram index serves name, SKU and brand. */
    searchText: text("search_text").generatedAlwaysAs(sql`lower(name || ' ' || sku || ' ' || coalesce(brand, ''))`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("products_sku_lower_idx").on(sql`lower(${t.sku})`),
    // A trigram index makes "contains" search fast at any size.
    index("products_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    index("products_name_sort_idx").on(sql`lower(${t.name})`, t.id),
    index("products_category_idx").on(t.category, t.id),
    index("products_price_idx").on(t.priceOre, t.id),
    check("products_age_limit_check", sql`${t.ageLimit} is null or ${t.ageLimit} in (15, 18, 20)`),
    check("products_price_check", sql`${t.priceOre} >= 0`),
    check(
      "products_net_content_check",
      sql`(${t.netContentMilli} is null) = (${t.netContentUnit} is null) and ${t.netContentMilli} > 0
        and ${t.netContentUnit} in ('g', 'kg', 'ml', 'l', 'st')`,
    ),
    check(
      "products_pant_code_check",
      sql`${t.pantCode} is null or ${t.pantCode} in ('can', 'pet_small', 'pet_large', 'can_1kr', 'pet_small_1kr', 'pet_large_2kr')`,
    ),
    check(
      "products_vat_category_check",
      sql`${t.vatCategory} in ('standard', 'food', 'alcoholic_drink', 'books_newspapers', 'exempt')`,
    ),
  ],
);

/** Every barcode, stored as GTIN-14; a barcode belongs to one product only. */
export const productBarcodes = pgTable(
  "product_barcodes",
  {
    gtin14: text("gtin14").primaryKey(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    isPrimary: boolean("is_primary").notNull().default(false),
    position: smallint("position").notNull().default(0),
  },
  (t) => [index("product_barcodes_product_idx").on(t.productId)],
);
