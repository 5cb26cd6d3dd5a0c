import { SETTING_DEFINITIONS, type SettingCategory } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { modules, settings } from "./schema/index.ts";

/**
 * The module catalogue. Later features check these ids before they act
 * (face checkout needs `face_checkout` enabled on the store, and so on).
 */
export const MODULE_CATALOGUE = [
  {
    moduleId: "ai_product_recognition",
    name: "AI_Product_Recognition",
    description: "Cameras recognise products taken from the shelf and add them to the cart",
    category: "ai",
    pricePerMonthOre: 1_499_00,
  },
  {
    moduleId: "face_checkout",
    name: "Face_Checkout",
    description: "Shoppers leave through the exit after a face check; payment is automatic",
    category: "checkout",
    pricePerMonthOre: 999_00,
  },
  {
    moduleId: "age_verification",
    name: "Age_Verification",
    description: "Age-limited products (tobacco, folköl) checked against the shopper's BankID birth date",
    category: "compliance",
    pricePerMonthOre: 299_00,
  },
  {
    moduleId: "analytics",
    name: "Analytics",
    description: "Footfall, basket size and revenue reports per store",
    category: "insights",
    pricePerMonthOre: 499_00,
  },
  {
    moduleId: "door_access",
    name: "Door_Access",
    description: "Entry QR scanner and door controller integration",
    category: "access",
    pricePerMonthOre: 399_00,
  },
  {
    moduleId: "email_receipts",
    name: "Email_Receipts",
    description: "Digital receipts e-mailed to the shopper after each purchase",
    category: "checkout",
    pricePerMonthOre: 99_00,
  },
] as const;

/** Every known setting with its built-in value (packages/contracts, settings.ts). */
export const SETTING_SEEDS = (
  Object.entries(SETTING_DEFINITIONS) as [SettingCategory, Record<string, SettingSeedDef>][]
).flatMap(([category, keys]) =>
  Object.entries(keys).map(([key, d]) => ({
    category,
    key,
    value: d.value,
    description: d.description,
    isEditable: d.is_editable,
  })),
);
type SettingSeedDef = { value: unknown; description: string; is_editable: boolean };

/** Reference data every installation needs; safe to run on every start. */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [i, m] of MODULE_CATALOGUE.entries()) {
      await tx
        .insert(modules)
        .values({ ...m, sortOrder: i })
        .onConflictDoUpdate({
          target: modules.moduleId,
          set: { name: m.name, description: m.description, category: m.category, sortOrder: i },
        });
    }
    // A value an operator chose is kept; what the code says about a key (its words, whether it may change) wins.
    await tx
      .insert(settings)
      .values(SETTING_SEEDS)
      .onConflictDoUpdate({
        target: [settings.category, settings.key],
        set: { description: sql`excluded.description`, isEditable: sql`excluded.is_editable` },
        setWhere: sql`${settings.description} is distinct from excluded.description
          or ${settings.isEditable} is distinct from excluded.is_editable`,
      });
  });
}
