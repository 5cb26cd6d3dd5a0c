import {
  COUNTRIES,
  CURRENCIES_BY_COUNTRY,
  LANGUAGES,
  RESOLUTIONS,
  STORE_DEFAULTS,
  STORE_TYPES,
  TIMEZONES,
} from "@glide/contracts";
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

type SettingSeed = {
  category: "camera" | "product" | "store" | "ai" | "ui";
  key: string;
  value: unknown;
  description: string;
  isEditable?: boolean;
};

/** Settings defaults from the specification (admin-console.md §3, §9). */
export const SETTING_DEFAULTS: SettingSeed[] = [
  {
    category: "store",
    key: "types",
    value: { types: STORE_TYPES },
    description: "Store types offered in the store form",
    isEditable: false,
  },
  { category: "store", key: "countries", value: COUNTRIES, description: "Countries by code", isEditable: false },
  {
    category: "store",
    key: "timezones",
    value: TIMEZONES,
    description: "Time zones offered for stores",
    isEditable: false,
  },
  {
    category: "store",
    key: "languages",
    value: LANGUAGES,
    description: "Languages (locales) offered for stores",
    isEditable: false,
  },
  { category: "store", key: "default_country", value: STORE_DEFAULTS.country, description: "Country of a new store" },
  {
    category: "store",
    key: "default_timezone",
    value: STORE_DEFAULTS.timezone,
    description: "Time zone of a new store",
  },
  { category: "store", key: "default_locale", value: STORE_DEFAULTS.language, description: "Language of a new store" },
  {
    category: "product",
    key: "currencies_by_country",
    value: CURRENCIES_BY_COUNTRY,
    description: "Currency code, symbol and symbol position per country",
  },
  { category: "product", key: "default_currency", value: "SEK", description: "Currency of new stores and products" },
  { category: "product", key: "currency_symbol", value: "kr", description: "Symbol shown with prices" },
  { category: "product", key: "default_vat_rate", value: 0.25, description: "Default VAT rate (fraction)" },
  {
    category: "product",
    key: "vat_rates_by_country",
    value: { SE: 0.25, NO: 0.25, DK: 0.25, FI: 0.255, DE: 0.19, UK: 0.2, US: 0, FR: 0.2 },
    description: "Standard VAT rate per country (fraction)",
  },
  {
    category: "camera",
    key: "brand_presets",
    value: {
      hikvision: { port: 554, stream_format: "/Streaming/Channels/{channel}01" },
      dahua: { port: 554, stream_format: "/cam/realmonitor?channel={channel}&subtype=0" },
      axis: { port: 554, stream_format: "/axis-media/media.amp?camera={channel}" },
      generic: { port: 554, stream_format: "/stream{channel}" },
    },
    description: "Default port and RTSP path per camera brand",
  },
  {
    category: "camera",
    key: "system_defaults",
    value: { connection_type: "rtsp", type: "nvr", brand: "hikvision", port: 554 },
    description: "Defaults of a new camera system",
  },
  {
    category: "camera",
    key: "camera_defaults",
    value: { fps: 30, resolution: "1920x1080", location_zone: "entrance" },
    description: "Defaults of a new camera",
  },
  { category: "camera", key: "resolutions", value: RESOLUTIONS, description: "Resolutions offered", isEditable: false },
  { category: "ai", key: "confidence_threshold", value: 0.5, description: "Minimum detection confidence" },
  { category: "ai", key: "iou_threshold", value: 0.45, description: "Overlap threshold for merging detections" },
  { category: "ai", key: "model_name", value: "yolov8n", description: "Product detection model" },
  {
    category: "ui",
    key: "defaults",
    value: { view_mode: "list", page_size: 20, date_format: "YYYY-MM-DD", time_format: "HH:mm" },
    description: "Console display defaults",
  },
];

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
    await tx
      .insert(settings)
      .values(SETTING_DEFAULTS.map((s) => ({ ...s, isEditable: s.isEditable ?? true })))
      .onConflictDoNothing();
  });
}
