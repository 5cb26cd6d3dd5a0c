import type { Setting, SettingCategory } from "@glide/contracts";
import { choiceLabelOf, isPercentSetting, toPercent } from "./setting-editors.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const percentText = (value: unknown) => (typeof value === "number" ? `${toPercent(value)} %` : scalarText(value));

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** A list item: an option's label, else its value; other things as text. */
function itemText(item: unknown): string {
  if (isRecord(item)) {
    const named = item.label ?? item.name ?? item.value;
    if (typeof named === "string" || typeof named === "number") return String(named);
  }
  return inlineText(item);
}

/** Anything on one line: objects as "field value" pairs, lists comma-separated. */
function inlineText(value: unknown): string {
  if (Array.isArray(value)) return value.map(itemText).join(", ");
  if (isRecord(value))
    return Object.entries(value)
      .map(([field, inner]) => `${field} ${inlineText(inner)}`)
      .join(", ");
  return scalarText(value);
}

export interface ValueEntry {
  /** The object's key or map's entry this line shows; null for a value that is one thing. */
  name: string | null;
  text: string;
}

/**
 * A setting's value as a person reads it, one entry per line: fractions of
 * VAT and thresholds as percents ("25 %"), a VAT category by its name,
 * objects as "key: value" lines, lists comma-separated.
 */
export function formatEntries(category: SettingCategory, key: string, value: unknown): ValueEntry[] {
  const percent = isPercentSetting(category, key);
  if (Array.isArray(value)) return [{ name: null, text: value.map(itemText).join(", ") || "(empty)" }];
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([name, inner]) => ({
      name,
      text: percent ? percentText(inner) : inlineText(inner),
    }));
    return entries.length > 0 ? entries : [{ name: null, text: "(empty)" }];
  }
  const text = percent ? percentText(value) : (choiceLabelOf(category, key, value) ?? scalarText(value));
  return [{ name: null, text }];
}

/** The same on one line ("view_mode: list; page_size: 20"), for the history and the store's overrides. */
export const formatValueInline = (category: SettingCategory, key: string, value: unknown) =>
  formatEntries(category, key, value)
    .map((entry) => (entry.name === null ? entry.text : `${entry.name}: ${entry.text}`))
    .join("; ");

/** Search matches the key, the description and the value's JSON text, ignoring case. */
export function matchesSearch(setting: Setting, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return [setting.key, setting.description ?? "", JSON.stringify(setting.value) ?? ""].some((text) =>
    text.toLowerCase().includes(needle),
  );
}
