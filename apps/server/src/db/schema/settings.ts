import { sql } from "drizzle-orm";
import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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
