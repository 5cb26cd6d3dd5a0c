import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { adminUsers } from "./admin.ts";
import { stores } from "./stores.ts";

export const settings = pgTable(
  "settings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    category: text("category", { enum: ["camera", "product", "store", "ai", "ui"] }).notNull(),
    key: text("key").notNull(),
    value: jsonb("value").$type<unknown>().notNull(),
    description: text("description"),
    isEditable: boolean("is_editable").notNull().default(true),
    updatedAt: timestamp("updated_at", { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => sql`now()`),
  },
  (t) => [uniqueIndex("settings_category_key_idx").on(t.category, t.key)],
);

/**
 * Every change of a global setting or a store's override: who, when, the
 * value before and after (null where there was none). Kept when the admin
 * or the store goes; their e-mail and name are copied for that.
 */
export const settingChanges = pgTable(
  "setting_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    category: text("category", { enum: ["camera", "product", "store", "ai", "ui"] }).notNull(),
    key: text("key").notNull(),
    storeId: uuid("store_id").references(() => stores.id, { onDelete: "set null" }),
    storeName: text("store_name"),
    /** True for a store's override, also after the store is deleted. */
    isOverride: boolean("is_override").notNull().default(false),
    adminId: uuid("admin_id").references(() => adminUsers.id, { onDelete: "set null" }),
    adminEmail: text("admin_email"),
    oldValue: jsonb("old_value").$type<unknown>(),
    newValue: jsonb("new_value").$type<unknown>(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("setting_changes_changed_at_idx").on(t.changedAt.desc(), t.id.desc()),
    index("setting_changes_store_idx").on(t.storeId, t.changedAt.desc()),
  ],
);
