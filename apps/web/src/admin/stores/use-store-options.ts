import {
  COUNTRIES,
  COUNTRY_TIMEZONES,
  type CountryCode,
  CURRENCIES_BY_COUNTRY,
  type CurrenciesByCountryValue,
  LANGUAGES,
  STORE_TYPES,
  type StoreTypesValue,
  TIMEZONES,
} from "@glide/contracts";
import { useSettingValue } from "../settings/use-settings.ts";

export interface Option {
  value: string;
  label: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOptions(value: unknown): Option[] | undefined {
  if (!isRecord(value) || !Array.isArray(value.types)) return undefined;
  const types = value.types as StoreTypesValue["types"];
  return types.filter((t) => isRecord(t) && typeof t.value === "string" && t.value && typeof t.label === "string");
}

function mapOptions(value: unknown): Option[] | undefined {
  if (!isRecord(value)) return undefined;
  return Object.entries(value).flatMap(([code, name]) =>
    code && typeof name === "string" ? [{ value: code, label: name }] : [],
  );
}

function currencyOptions(value: unknown): Option[] | undefined {
  if (!isRecord(value)) return undefined;
  const codes = new Set<string>();
  for (const entry of Object.values(value as CurrenciesByCountryValue)) {
    if (isRecord(entry) && typeof entry.code === "string" && entry.code) codes.add(entry.code);
  }
  return [...codes].map((code) => ({ value: code, label: code }));
}

const toOptions = (map: Record<string, string>): Option[] =>
  Object.entries(map).map(([value, label]) => ({ value, label }));

/** Alphabetical by what the person reads, so a long list can be scanned. */
const byLabel = (options: Option[]): Option[] =>
  [...options].sort((a, b) => a.label.localeCompare(b.label, "en", { sensitivity: "base" }));

function currencyOf(value: unknown, country: string): string | undefined {
  const entry = isRecord(value) ? value[country] : undefined;
  return isRecord(entry) && typeof entry.code === "string" && entry.code ? entry.code : undefined;
}

/**
 * The store form's dropdowns, from the settings API (spec §3 dropdown sources). Until they
 * answer, or if they fail, the same lists from contracts keep the form usable.
 */
export function useStoreOptions() {
  const types = useSettingValue("store", "types");
  const countries = useSettingValue("store", "countries");
  const timezones = useSettingValue("store", "timezones");
  const languages = useSettingValue("store", "languages");
  const currencies = useSettingValue("product", "currencies_by_country");

  return {
    types: typeOptions(types.data) ?? [...STORE_TYPES],
    countries: byLabel(mapOptions(countries.data) ?? toOptions(COUNTRIES)),
    timezones: byLabel(mapOptions(timezones.data) ?? toOptions(TIMEZONES)),
    languages: byLabel(mapOptions(languages.data) ?? toOptions(LANGUAGES)),
    currencies: byLabel(currencyOptions(currencies.data) ?? currencyOptions(CURRENCIES_BY_COUNTRY) ?? []),
    /** What a store in this country starts with: its time zone and its currency (settings first, then contracts). */
    countryDefaults: (country: string) => ({
      timezone: COUNTRY_TIMEZONES[country as CountryCode] as string | undefined,
      currency: currencyOf(currencies.data, country) ?? CURRENCIES_BY_COUNTRY[country as CountryCode]?.code,
    }),
  };
}

/** Keeps a stored value selectable even when the list no longer offers it. */
export function withCurrent(options: Option[], current: string): Option[] {
  if (!current || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label: current }];
}
