import { STORE_DEFAULTS, type Store, type StoreInput } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";

/** What the store dialog's inputs hold: text as typed; converted by toStoreInput on submit. */
export interface StoreFormValues {
  name: string;
  legal_name: string;
  organization_number: string;
  vat_number: string;
  store_type: string;
  size_sqm: string;
  description: string;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  timezone: string;
  phone: string;
  email: string;
  website: string;
  contact_person: string;
  contact_title: string;
  language: string;
  currency: string;
  /** Percent as typed (25), stored as a fraction (0.25). */
  vat_rate: string;
}

/** The dialog's four tabs and their fields, in the order shown (spec §2 Store form). */
export const STORE_TABS = {
  basic: ["name", "legal_name", "organization_number", "vat_number", "store_type", "size_sqm", "description"],
  location: ["address", "city", "postal_code", "country", "timezone"],
  contact: ["phone", "email", "website", "contact_person", "contact_title"],
  settings: ["language", "currency", "vat_rate"],
} as const satisfies Record<string, readonly (keyof StoreFormValues)[]>;

/** The API's paths are the form's names, except the three kept under `settings`. */
export const storeFieldOf = fieldMapper<StoreFormValues>(Object.values(STORE_TABS).flat(), {
  "settings.language": "language",
  "settings.currency": "currency",
  "settings.vat_rate": "vat_rate",
});

/** A fraction shown as a percent with at most two decimals: 0.1234 → "12.34". */
function percentText(fraction: number): string {
  return String(Math.round(fraction * 10_000) / 100);
}

/** What a new store starts with: the effective settings, or STORE_DEFAULTS until they answer. */
export interface StoreDraftDefaults {
  country: string;
  timezone: string;
  language: string;
  currency: string;
  /** A fraction (0.25). */
  vat_rate: number;
}

export function toFormValues(store?: Store, defaults: StoreDraftDefaults = STORE_DEFAULTS): StoreFormValues {
  return {
    name: store?.name ?? "",
    legal_name: store?.legal_name ?? "",
    organization_number: store?.organization_number ?? "",
    vat_number: store?.vat_number ?? "",
    store_type: store?.store_type ?? "",
    size_sqm: store?.size_sqm == null ? "" : String(store.size_sqm),
    description: store?.description ?? "",
    address: store?.address ?? "",
    city: store?.city ?? "",
    postal_code: store?.postal_code ?? "",
    country: store?.country ?? defaults.country,
    timezone: store?.timezone ?? defaults.timezone,
    phone: store?.phone ?? "",
    email: store?.email ?? "",
    website: store?.website ?? "",
    contact_person: store?.contact_person ?? "",
    contact_title: store?.contact_title ?? "",
    language: store?.settings.language ?? defaults.language,
    currency: store?.settings.currency ?? defaults.currency,
    vat_rate: percentText(store?.settings.vat_rate ?? defaults.vat_rate),
  };
}

/** Empty text is sent as null so that clearing a field on edit clears it on the server. */
function text(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

export function toStoreInput(values: StoreFormValues): StoreInput {
  const size = values.size_sqm.trim();
  const vat = values.vat_rate.trim();
  return {
    name: values.name.trim(),
    legal_name: text(values.legal_name),
    organization_number: text(values.organization_number),
    vat_number: text(values.vat_number),
    store_type: text(values.store_type),
    // Sent as typed: 12.7 is refused by the server with a reason instead of being cut to 12 here.
    size_sqm: size === "" ? null : Number(size),
    description: text(values.description),
    address: text(values.address),
    city: text(values.city),
    postal_code: text(values.postal_code),
    country: values.country,
    // The server checks these against its lists and names the field if one is wrong.
    timezone: values.timezone as StoreInput["timezone"],
    phone: text(values.phone),
    email: text(values.email),
    website: text(values.website),
    contact_person: text(values.contact_person),
    contact_title: text(values.contact_title),
    settings: {
      language: values.language as NonNullable<StoreInput["settings"]>["language"],
      currency: values.currency as NonNullable<StoreInput["settings"]>["currency"],
      ...(vat === "" ? {} : { vat_rate: Number(vat) / 100 }),
    },
  };
}
