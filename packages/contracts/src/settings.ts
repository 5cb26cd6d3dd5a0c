import { z } from "zod";
import {
  COUNTRIES,
  COUNTRY_CODES,
  CURRENCIES,
  CURRENCIES_BY_COUNTRY,
  LANGUAGES,
  RESOLUTIONS,
  STORE_DEFAULTS,
  STORE_TYPES,
  TIMEZONES,
} from "./constants.ts";
import { DEFAULT_VAT_CATEGORY, vatCategorySchema } from "./vat.ts";

/**
 * The ceilings of the cart limits a store may set: a line's quantity, and a
 * cart's total in kronor (the card provider takes at most 999,999.99 in one
 * payment). The settings store/max_line_quantity and store/max_cart_total
 * pick a store's limits below them.
 */
export const CART_LIMITS = { line_quantity: 999, total_kronor: 999_999 } as const;
const CART_TOTAL_RANGE = CART_LIMITS.total_kronor.toLocaleString("en-US");

export const SETTING_CATEGORIES = ["camera", "product", "store", "ai", "ui"] as const;
export const settingCategorySchema = z.enum(SETTING_CATEGORIES);
export type SettingCategory = z.infer<typeof settingCategorySchema>;
export const isSettingCategory = (c: string): c is SettingCategory =>
  (SETTING_CATEGORIES as readonly string[]).includes(c);

/** Camera facts the settings and the camera screen share (admin-console.md §9). */
export const CAMERA_SYSTEM_TYPES = ["nvr", "dvr", "standalone"] as const;
export const CAMERA_BRANDS = ["hikvision", "dahua", "axis", "generic"] as const;
export const CONNECTION_TYPES = ["rtsp", "http", "onvif"] as const;
export const SYSTEM_STATUSES = ["online", "active", "offline", "inactive"] as const;
export const LOCATION_ZONES = ["entrance", "exit", "aisle", "checkout", "storage", "other"] as const;
export const AI_MODELS = ["yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x"] as const;
export const FPS_RANGE = { min: 15, max: 60, step: 5 } as const;
export const DATE_FORMATS = ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "D MMM YYYY"] as const;
export const TIME_FORMATS = ["HH:mm", "HH:mm:ss", "h:mm A"] as const;
export const VIEW_MODES = ["list", "grid"] as const;
/** The largest page the console asks for; the spec's page sizes are 10, 20, 50 and 100. */
export const MAX_PAGE_SIZE = 100;

const fraction = (what: string) =>
  z
    .number({ error: `${what} must be a number from 0 to 1 (a fraction: 0.25 is 25 %)` })
    .min(0, `${what} must be from 0 to 1 (a fraction: 0.25 is 25 %)`)
    .max(1, `${what} must be from 0 to 1 (a fraction: 0.25 is 25 %)`);

/** A VAT rate kept in basis points, as stores and products keep it: at most two decimals of a percent. */
const vatFraction = fraction("A VAT rate").refine((v) => Math.abs(v * 10000 - Math.round(v * 10000)) < 1e-6, {
  message: "A VAT rate allows at most two decimals of a percent (0.125 is 12.5 %)",
});

const countryCode = z.enum(COUNTRY_CODES as [string, ...string[]]);
/** A map keyed by country code; an unknown code is named at its own path ("value.XX"). */
const byCountry = <T extends z.ZodType>(entry: T) =>
  z.record(z.string(), entry).superRefine((map, ctx) => {
    for (const code of Object.keys(map)) {
      if (!(COUNTRY_CODES as string[]).includes(code)) {
        ctx.addIssue({
          code: "custom",
          path: [code],
          message: `Unknown country code; use one of ${COUNTRY_CODES.join(", ")}`,
        });
      }
    }
  });
const port = z
  .number({ error: "A port must be a whole number from 1 to 65535" })
  .int("A port must be a whole number from 1 to 65535")
  .min(1, "A port must be a whole number from 1 to 65535")
  .max(65535, "A port must be a whole number from 1 to 65535");
const label = z.string().trim().min(1).max(100);
const option = z.strictObject({ value: z.string().trim().min(1).max(100), label });
/** The longest texts inside setting values; the console's inputs carry the same limits. */
export const SETTING_TEXT_LIMITS = { currency_symbol: 5, stream_format: 300 } as const;

/** Stream paths are relative to the camera: they start with "/" and may hold {channel}. */
const streamFormat = z
  .string()
  .trim()
  .min(1)
  .max(SETTING_TEXT_LIMITS.stream_format)
  .regex(/^\/[^\s]*$/, 'A stream path starts with "/" and has no spaces, e.g. /Streaming/Channels/{channel}01');

/** What each known setting may hold; the server refuses anything else with the path inside the value. */
export const SETTING_VALUE_SCHEMAS = {
  camera: {
    brand_presets: z.record(
      z.enum(CAMERA_BRANDS),
      z.strictObject({ port, stream_format: streamFormat }),
      "Brand presets map each of hikvision, dahua, axis, generic to { port, stream_format }",
    ),
    system_defaults: z.strictObject({
      connection_type: z.enum(CONNECTION_TYPES),
      type: z.enum(CAMERA_SYSTEM_TYPES),
      brand: z.enum(CAMERA_BRANDS),
      port,
    }),
    camera_defaults: z.strictObject({
      fps: z
        .number({ error: `Frames per second must be a whole number from ${FPS_RANGE.min} to ${FPS_RANGE.max}` })
        .int(`Frames per second must be a whole number from ${FPS_RANGE.min} to ${FPS_RANGE.max}`)
        .min(FPS_RANGE.min, `Frames per second must be from ${FPS_RANGE.min} to ${FPS_RANGE.max}`)
        .max(FPS_RANGE.max, `Frames per second must be from ${FPS_RANGE.min} to ${FPS_RANGE.max}`),
      resolution: z.enum(RESOLUTIONS),
      location_zone: z.enum(LOCATION_ZONES),
    }),
    resolutions: z.array(z.enum(RESOLUTIONS)).min(1),
    health_check_interval: z
      .number({ error: "The interval must be a whole number of seconds from 10 to 3600" })
      .int("The interval must be a whole number of seconds from 10 to 3600")
      .min(10, "The interval must be from 10 to 3600 seconds")
      .max(3600, "The interval must be from 10 to 3600 seconds"),
  },
  product: {
    default_vat_category: vatCategorySchema,
    vat_rates_by_country: byCountry(vatFraction),
    currencies_by_country: byCountry(
      z.strictObject({
        code: z.enum(CURRENCIES),
        symbol: z.string().trim().min(1).max(SETTING_TEXT_LIMITS.currency_symbol),
        position: z.enum(["before", "after"]),
      }),
    ),
    default_currency: z.enum(CURRENCIES),
    currency_symbol: z
      .string()
      .trim()
      .min(1, "A currency symbol cannot be empty")
      .max(SETTING_TEXT_LIMITS.currency_symbol),
  },
  store: {
    types: z.strictObject({ types: z.array(option).min(1) }),
    countries: byCountry(label),
    timezones: z.partialRecord(z.enum(Object.keys(TIMEZONES) as [keyof typeof TIMEZONES]), label),
    languages: z.partialRecord(z.enum(Object.keys(LANGUAGES) as [keyof typeof LANGUAGES]), label),
    default_country: countryCode,
    default_timezone: z.enum(Object.keys(TIMEZONES) as [keyof typeof TIMEZONES]),
    default_locale: z.enum(Object.keys(LANGUAGES) as [keyof typeof LANGUAGES]),
    spot_check_share: z
      .number({ error: "The spot-check share must be a fraction from 0 to 0.2 (0.05 is 5 % of exits)" })
      .min(0, "The spot-check share must be from 0 to 0.2 (0.05 is 5 % of exits)")
      .max(0.2, "The spot-check share must be from 0 to 0.2 (at most 20 % of exits)"),
    abandon_after_minutes: z
      .number({ error: "Minutes must be a whole number from 5 to 1440" })
      .int("Minutes must be a whole number from 5 to 1440")
      .min(5, "A visit can be called abandoned after 5 to 1440 minutes without activity")
      .max(1440, "A visit can be called abandoned after 5 to 1440 minutes without activity"),
    max_line_quantity: z
      .number({ error: `A line's quantity limit must be a whole number from 1 to ${CART_LIMITS.line_quantity}` })
      .int(`A line's quantity limit must be a whole number from 1 to ${CART_LIMITS.line_quantity}`)
      .min(1, `A line's quantity limit must be from 1 to ${CART_LIMITS.line_quantity}`)
      .max(CART_LIMITS.line_quantity, `A line's quantity limit must be from 1 to ${CART_LIMITS.line_quantity}`),
    max_cart_total: z
      .number({ error: `The cart limit must be a whole number of kronor from 1 to ${CART_TOTAL_RANGE}` })
      .int(`The cart limit must be a whole number of kronor from 1 to ${CART_TOTAL_RANGE}`)
      .min(1, `The cart limit must be from 1 to ${CART_TOTAL_RANGE} kr`)
      .max(CART_LIMITS.total_kronor, `The cart limit must be from 1 to ${CART_TOTAL_RANGE} kr`),
    require_card_at_door: z.boolean({ error: "Say true (a card on file is needed to get in) or false" }),
  },
  ai: {
    confidence_threshold: fraction("The confidence threshold"),
    iou_threshold: fraction("The IOU threshold"),
    model_name: z.enum(AI_MODELS),
  },
  ui: {
    defaults: z.strictObject({
      view_mode: z.enum(VIEW_MODES),
      page_size: z
        .number({ error: `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
        .int(`The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
        .min(1, `The page size must be from 1 to ${MAX_PAGE_SIZE}`)
        .max(MAX_PAGE_SIZE, `The page size must be from 1 to ${MAX_PAGE_SIZE}`),
      date_format: z.enum(DATE_FORMATS),
      time_format: z.enum(TIME_FORMATS),
    }),
  },
} as const satisfies Record<SettingCategory, Record<string, z.ZodType>>;

type Schemas = typeof SETTING_VALUE_SCHEMAS;
/** The value type of each known setting. */
export type SettingValues = { [C in SettingCategory]: { [K in keyof Schemas[C]]: z.infer<Schemas[C][K]> } };
export type SettingKey<C extends SettingCategory = SettingCategory> = Extract<keyof Schemas[C], string>;

type Definition = { value: unknown; description: string; is_editable: boolean };

/**
 * Every known setting's built-in value: what a fresh installation starts
 * with, and what a feature reads when the database holds nothing for a key.
 */
export const SETTING_DEFINITIONS: { [C in SettingCategory]: { [K in keyof Schemas[C]]: Definition } } = {
  camera: {
    brand_presets: {
      value: {
        hikvision: { port: 554, stream_format: "/Streaming/Channels/{channel}01" },
        dahua: { port: 554, stream_format: "/cam/realmonitor?channel={channel}&subtype=0" },
        axis: { port: 554, stream_format: "/axis-media/media.amp?camera={channel}" },
        generic: { port: 554, stream_format: "/stream{channel}" },
      },
      description: "Default port and RTSP path per camera brand",
      is_editable: true,
    },
    system_defaults: {
      value: { connection_type: "rtsp", type: "nvr", brand: "hikvision", port: 554 },
      description: "Defaults of a new camera system",
      is_editable: true,
    },
    camera_defaults: {
      value: { fps: 30, resolution: "1920x1080", location_zone: "entrance" },
      description: "Defaults of a new camera",
      is_editable: true,
    },
    resolutions: { value: [...RESOLUTIONS], description: "Resolutions offered", is_editable: false },
    health_check_interval: {
      value: 60,
      description: "Seconds between two checks of every camera system and camera",
      is_editable: true,
    },
  },
  product: {
    default_vat_category: {
      value: DEFAULT_VAT_CATEGORY,
      description: "VAT category of a product created without one",
      is_editable: true,
    },
    vat_rates_by_country: {
      value: { SE: 0.25, NO: 0.25, DK: 0.25, FI: 0.255, DE: 0.19, UK: 0.2, US: 0, FR: 0.2 },
      description: "Standard VAT rate per country (fraction)",
      is_editable: true,
    },
    currencies_by_country: {
      value: CURRENCIES_BY_COUNTRY,
      description: "Currency code, symbol and symbol position per country",
      is_editable: true,
    },
    default_currency: {
      value: STORE_DEFAULTS.currency,
      description: "Currency of new stores and products",
      is_editable: true,
    },
    currency_symbol: { value: "kr", description: "Symbol shown with prices", is_editable: true },
  },
  store: {
    types: { value: { types: STORE_TYPES }, description: "Store types offered in the store form", is_editable: false },
    countries: { value: COUNTRIES, description: "Countries by code", is_editable: false },
    timezones: { value: TIMEZONES, description: "Time zones offered for stores", is_editable: false },
    languages: { value: LANGUAGES, description: "Languages (locales) offered for stores", is_editable: false },
    default_country: { value: STORE_DEFAULTS.country, description: "Country of a new store", is_editable: true },
    default_timezone: { value: STORE_DEFAULTS.timezone, description: "Time zone of a new store", is_editable: true },
    default_locale: { value: STORE_DEFAULTS.language, description: "Language of a new store", is_editable: true },
    spot_check_share: {
      value: 0,
      description: "Share of exits flagged for a staff check (0 to 0.2; never a shopper's first visit)",
      is_editable: true,
    },
    abandon_after_minutes: {
      value: 30,
      description:
        "Minutes without activity after which an open visit is closed: ended if its cart is empty, else left unpaid for staff",
      is_editable: true,
    },
    max_line_quantity: {
      value: CART_LIMITS.line_quantity,
      description: "The most units of one product a cart line may hold",
      is_editable: true,
    },
    max_cart_total: {
      value: 50_000,
      description: "The most a cart may come to, in kronor (a card payment larger than this is refused at the scan)",
      is_editable: true,
    },
    require_card_at_door: {
      value: true,
      description:
        "A shopper needs a card on file to get an entry code (only where a payment provider is configured), so nobody gets in who cannot pay at the exit",
      is_editable: true,
    },
  },
  ai: {
    confidence_threshold: { value: 0.5, description: "Minimum detection confidence", is_editable: true },
    iou_threshold: { value: 0.45, description: "Overlap threshold for merging detections", is_editable: true },
    model_name: { value: "yolov8n", description: "Product detection model", is_editable: true },
  },
  ui: {
    defaults: {
      value: { view_mode: "list", page_size: 20, date_format: "YYYY-MM-DD", time_format: "HH:mm" },
      description: "Console display defaults",
      is_editable: true,
    },
  },
};

/** The schema of a known setting, or null for a key nobody knows. */
export function settingValueSchema(category: string, key: string): z.ZodType | null {
  if (!isSettingCategory(category)) return null;
  const schemas = SETTING_VALUE_SCHEMAS[category] as Record<string, z.ZodType>;
  return Object.hasOwn(schemas, key) ? schemas[key]! : null;
}

/** The known keys of a category, in the order the screen lists them. */
export const settingKeysOf = (category: SettingCategory): string[] => Object.keys(SETTING_VALUE_SCHEMAS[category]);

export type StoreTypesValue = { types: { value: string; label: string }[] };
export type CurrenciesByCountryValue = Record<string, { code: string; symbol: string; position: "before" | "after" }>;
