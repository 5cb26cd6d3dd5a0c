import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { priceGroups } from "./price-groups.ts";

export const stores = pgTable(
  "stores",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    legalName: text("legal_name"),
    organizationNumber: text("organization_number"),
    vatNumber: text("vat_number"),
    storeType: text("store_type"),
    sizeSqm: integer("size_sqm"),
    description: text("description"),
    address: text("address"),
    city: text("city"),
    postalCode: text("postal_code"),
    country: text("country").notNull().default("SE"),
    timezone: text("timezone").notNull().default("Europe/Stockholm"),
    phone: text("phone"),
    email: text("email"),
    website: text("website"),
    contactPerson: text("contact_person"),
    contactTitle: text("contact_title"),
    isActive: boolean("is_active").notNull().default(true),
    language: text("language").notNull().default("sv-SE"),
    currency: text("currency").notNull().default("SEK"),
    /** Hundredths of a percent, exact: 25 % is 2500. The API speaks fractions (0.25). */
    vatRateBp: integer("vat_rate_bp").notNull().default(2500),
    customSettings: jsonb("custom_settings").$type<Record<string, Record<string, unknown>>>().notNull().default({}),
    /** The price group whose prices the store takes where it has none of its own; null for none. */
    priceGroupId: uuid("price_group_id").references(() => priceGroups.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => sql`now()`),
  },
  (t) => [index("stores_price_group_idx").on(t.priceGroupId)],
);

/** The module catalogue: features a store can subscribe to. */
export const modules = pgTable("modules", {
  moduleId: text("module_id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  category: text("category").notNull(),
  /** Öre per month. */
  pricePerMonthOre: integer("price_per_month_ore").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const storeModules = pgTable(
  "store_modules",
  {
    storeId: uuid("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    moduleId: text("module_id")
      .notNull()
      .references(() => modules.moduleId, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.moduleId] })],
);

/**
 * A row per statement that writes `stores` or `store_modules`, added in the
 * writing transaction by a trigger (migration 0030): the sum of `weight` is
 * the store list's version, which rises at every such commit and at no other
 * time. Writers only insert, so they never wait for one another; housekeeping
 * folds the rows into one of the same total weight. The console's store list
 * is kept per instance under the version it was read with (store-list.ts).
 */
export const storeListChanges = pgTable("store_list_changes", {
  weight: bigint("weight", { mode: "number" }).notNull().default(1),
});
