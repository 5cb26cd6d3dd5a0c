import {
  AI_MODELS,
  CAMERA_BRANDS,
  CAMERA_SYSTEM_TYPES,
  CONNECTION_TYPES,
  COUNTRIES,
  CURRENCIES,
  DATE_FORMATS,
  FPS_RANGE,
  LANGUAGES,
  LOCATION_ZONES,
  PAGE_SIZES,
  RESOLUTIONS,
  SETTING_TEXT_LIMITS,
  type SettingCategory,
  TIME_FORMATS,
  TIMEZONES,
  VAT_CATEGORIES,
  VAT_CATEGORY_LABELS,
  VIEW_MODES,
} from "@glide/contracts";

/*
 * The Simple Mode of each known setting (admin-console.md §9): which control
 * edits which part of the value. Anything not described here is edited in
 * Advanced Mode (JSON) only.
 */

export interface Option {
  value: string;
  label: string;
}

/** How one value (the whole setting, an object's field or a map's entry) is edited. */
export type Control =
  /** A fraction shown as a percent slider: 0.25 is 25 %. */
  | { kind: "percent"; max: number; step: number }
  /** A whole number on a slider. */
  | { kind: "range"; min: number; max: number; step: number }
  /** One of a list; `numeric` values are stored as numbers (page sizes). */
  | { kind: "select"; options: readonly Option[]; numeric?: boolean }
  | { kind: "number"; min?: number; max?: number; step?: number }
  /** A fraction typed as a percent with two decimals: 25.5 is stored 0.255. */
  | { kind: "percent-number" }
  | { kind: "text"; maxLength?: number };

export interface FieldSpec {
  name: string;
  label: string;
  control: Control;
  /** Takes a whole row of the form (a slider, a long path). */
  wide?: boolean;
}

export type EditorSpec =
  | { shape: "scalar"; label: string; control: Control }
  | { shape: "object"; fields: readonly FieldSpec[] }
  /**
   * A map with one row per entry. `entries` lists the keys it may hold;
   * `fixed` maps always hold all of them, the others may add and remove rows.
   */
  | {
      shape: "map";
      entryLabel: string;
      entries: readonly Option[];
      fixed: boolean;
      value: Control | readonly FieldSpec[];
    };

const plain = (values: readonly (string | number)[]): Option[] =>
  values.map((value) => ({ value: String(value), label: String(value) }));
const named = (map: Record<string, string>, withCode = true): Option[] =>
  Object.entries(map).map(([value, label]) => ({ value, label: withCode ? `${label} (${value})` : label }));

const COUNTRY_OPTIONS = named(COUNTRIES);
const select = (options: readonly Option[], numeric = false): Control => ({ kind: "select", options, numeric });
const port: Control = { kind: "number", min: 1, max: 65535, step: 1 };

const VAT_CATEGORY_OPTIONS = VAT_CATEGORIES.map((category) => ({
  value: category,
  label: VAT_CATEGORY_LABELS[category],
}));

const EDITORS: Partial<Record<`${SettingCategory}/${string}`, EditorSpec>> = {
  "product/default_vat_category": {
    shape: "scalar",
    label: "Default VAT category",
    control: select(VAT_CATEGORY_OPTIONS),
  },
  "product/vat_rates_by_country": {
    shape: "map",
    entryLabel: "Country",
    entries: COUNTRY_OPTIONS,
    fixed: false,
    value: { kind: "percent-number" },
  },
  "product/currencies_by_country": {
    shape: "map",
    entryLabel: "Country",
    entries: COUNTRY_OPTIONS,
    fixed: false,
    value: [
      { name: "code", label: "Currency", control: select(plain(CURRENCIES)) },
      { name: "symbol", label: "Symbol", control: { kind: "text", maxLength: SETTING_TEXT_LIMITS.currency_symbol } },
      { name: "position", label: "Symbol position", control: select(plain(["before", "after"])) },
    ],
  },
  "product/default_currency": { shape: "scalar", label: "Default currency", control: select(plain(CURRENCIES)) },
  "product/currency_symbol": {
    shape: "scalar",
    label: "Currency symbol",
    control: { kind: "text", maxLength: SETTING_TEXT_LIMITS.currency_symbol },
  },
  "camera/brand_presets": {
    shape: "map",
    entryLabel: "Brand",
    entries: plain(CAMERA_BRANDS),
    fixed: true,
    value: [
      { name: "port", label: "Port", control: port },
      {
        name: "stream_format",
        label: "Stream path",
        control: { kind: "text", maxLength: SETTING_TEXT_LIMITS.stream_format },
        wide: true,
      },
    ],
  },
  "camera/system_defaults": {
    shape: "object",
    fields: [
      { name: "connection_type", label: "Connection type", control: select(plain(CONNECTION_TYPES)) },
      { name: "type", label: "System type", control: select(plain(CAMERA_SYSTEM_TYPES)) },
      { name: "brand", label: "Brand", control: select(plain(CAMERA_BRANDS)) },
      { name: "port", label: "Port", control: port },
    ],
  },
  "camera/camera_defaults": {
    shape: "object",
    fields: [
      { name: "fps", label: "FPS", control: { kind: "range", ...FPS_RANGE }, wide: true },
      { name: "resolution", label: "Resolution", control: select(plain(RESOLUTIONS)) },
      { name: "location_zone", label: "Location zone", control: select(plain(LOCATION_ZONES)) },
    ],
  },
  "store/default_country": { shape: "scalar", label: "Default country", control: select(COUNTRY_OPTIONS) },
  "store/default_timezone": {
    shape: "scalar",
    label: "Default timezone",
    control: select(Object.keys(TIMEZONES).map((zone) => ({ value: zone, label: zone }))),
  },
  "store/default_locale": { shape: "scalar", label: "Default language", control: select(named(LANGUAGES)) },
  "ai/confidence_threshold": {
    shape: "scalar",
    label: "Confidence threshold",
    control: { kind: "percent", max: 100, step: 5 },
  },
  "ai/iou_threshold": { shape: "scalar", label: "IOU threshold", control: { kind: "percent", max: 100, step: 5 } },
  "ai/model_name": { shape: "scalar", label: "Model", control: select(plain(AI_MODELS)) },
  "ui/defaults": {
    shape: "object",
    fields: [
      { name: "view_mode", label: "View mode", control: select(plain(VIEW_MODES)) },
      { name: "page_size", label: "Page size", control: select(plain(PAGE_SIZES), true) },
      { name: "date_format", label: "Date format", control: select(plain(DATE_FORMATS)) },
      { name: "time_format", label: "Time format", control: select(plain(TIME_FORMATS)) },
    ],
  },
};

/** The Simple Mode editor of a setting; a scalar the list does not know gets a plain input. */
export function editorOf(category: SettingCategory, key: string, value: unknown): EditorSpec | null {
  const known = EDITORS[`${category}/${key}`];
  if (known) return known;
  if (typeof value === "number") return { shape: "scalar", label: key, control: { kind: "number" } };
  if (typeof value === "string") return { shape: "scalar", label: key, control: { kind: "text" } };
  return null;
}

/** Settings whose value is one number, text or choice: these are also edited in place in the list. */
export function inlineControlOf(category: SettingCategory, key: string, value: unknown): Control | null {
  const editor = editorOf(category, key, value);
  return editor?.shape === "scalar" ? editor.control : null;
}

/** Keys whose fractions read as percents in the list: VAT rates and the detection thresholds. */
const PERCENT_KEYS = new Set(["product/vat_rates_by_country", "ai/confidence_threshold", "ai/iou_threshold"]);

export const isPercentSetting = (category: SettingCategory, key: string) => PERCENT_KEYS.has(`${category}/${key}`);

/** Keys whose value is a code the list shows by its name: a VAT category reads "Food (livsmedel, folköl)". */
const NAMED_CHOICE_KEYS = new Set(["product/default_vat_category"]);

/** The name of a setting's chosen code, for the keys above; undefined for anything else or a code not offered. */
export function choiceLabelOf(category: SettingCategory, key: string, value: unknown): string | undefined {
  if (!NAMED_CHOICE_KEYS.has(`${category}/${key}`)) return undefined;
  const editor = EDITORS[`${category}/${key}`];
  if (editor?.shape !== "scalar" || editor.control.kind !== "select") return undefined;
  return editor.control.options.find((option) => option.value === value)?.label;
}

/** A fraction as a percent with at most two decimals: 0.255 → 25.5. */
export const toPercent = (fraction: number) => Math.round(fraction * 10_000) / 100;
/** A percent back to the fraction kept: 12 → 0.12, without float noise (12.5 → 0.125). */
export const fromPercent = (percent: number) => Math.round(percent * 100) / 10_000;

/** Options with the current value kept selectable when the list no longer offers it. */
export function optionsWith(options: readonly Option[], current: unknown): readonly Option[] {
  const value = current === undefined || current === null ? "" : String(current);
  if (value === "" || options.some((option) => option.value === value)) return options;
  return [...options, { value, label: value }];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Which paths inside the value have their own control in Simple Mode ("" is the editor as a whole). */
export function simplePaths(editor: EditorSpec | null, value: unknown): (path: string) => boolean {
  if (!editor || editor.shape === "scalar") return (path) => path === "";
  if (editor.shape === "object") return (path) => path === "" || editor.fields.some((field) => field.name === path);
  const present = new Set(isRecord(value) ? Object.keys(value) : []);
  const fields = Array.isArray(editor.value) ? (editor.value as readonly FieldSpec[]) : [];
  return (path) => {
    if (path === "") return true;
    const [entry = "", field, ...deeper] = path.split(".");
    if (!present.has(entry) || deeper.length > 0) return false;
    return field === undefined || fields.some((spec) => spec.name === field);
  };
}
