/** Business constants from the specification (admin-console.md §9). */

export const COUNTRIES = {
  SE: "Sweden",
  NO: "Norway",
  DK: "Denmark",
  FI: "Finland",
  DE: "Germany",
  UK: "United Kingdom",
  US: "United States",
  FR: "France",
} as const;
export type CountryCode = keyof typeof COUNTRIES;
export const COUNTRY_CODES = Object.keys(COUNTRIES) as CountryCode[];

export const CURRENCIES_BY_COUNTRY: Record<
  CountryCode,
  { code: string; symbol: string; position: "before" | "after" }
> = {
  SE: { code: "SEK", symbol: "kr", position: "after" },
  NO: { code: "NOK", symbol: "kr", position: "after" },
  DK: { code: "DKK", symbol: "kr", position: "after" },
  FI: { code: "EUR", symbol: "€", position: "after" },
  DE: { code: "EUR", symbol: "€", position: "after" },
  FR: { code: "EUR", symbol: "€", position: "after" },
  UK: { code: "GBP", symbol: "£", position: "before" },
  US: { code: "USD", symbol: "$", position: "before" },
};

export const CURRENCIES = ["SEK", "EUR", "USD", "NOK", "DKK", "GBP", "CHF"] as const;

export const TIMEZONES = {
  "Europe/Stockholm": "Stockholm",
  "Europe/Oslo": "Oslo",
  "Europe/Copenhagen": "Copenhagen",
  "Europe/Helsinki": "Helsinki",
  "Europe/Berlin": "Berlin",
  "Europe/London": "London",
  "Europe/Paris": "Paris",
  "America/New_York": "New York",
  "America/Los_Angeles": "Los Angeles",
  "Asia/Tokyo": "Tokyo",
} as const;

export type Timezone = keyof typeof TIMEZONES;

/** The time zone a store in each country starts with; its currency comes from CURRENCIES_BY_COUNTRY. */
export const COUNTRY_TIMEZONES: Record<CountryCode, Timezone> = {
  SE: "Europe/Stockholm",
  NO: "Europe/Oslo",
  DK: "Europe/Copenhagen",
  FI: "Europe/Helsinki",
  DE: "Europe/Berlin",
  UK: "Europe/London",
  US: "America/New_York",
  FR: "Europe/Paris",
};

export const LANGUAGES = {
  "sv-SE": "Svenska",
  "en-US": "English (US)",
  "en-GB": "English (UK)",
  "nb-NO": "Norsk bokmål",
  "da-DK": "Dansk",
  "fi-FI": "Suomi",
  "de-DE": "Deutsch",
} as const;

export const STORE_TYPES = [
  { value: "grocery", label: "Grocery" },
  { value: "convenience", label: "Convenience" },
  { value: "kiosk", label: "Kiosk" },
  { value: "pharmacy", label: "Pharmacy" },
  { value: "fashion", label: "Fashion" },
  { value: "electronics", label: "Electronics" },
  { value: "other", label: "Other" },
] as const;

export const STORE_DEFAULTS = {
  country: "SE",
  timezone: "Europe/Stockholm",
  language: "sv-SE",
  currency: "SEK",
  vat_rate: 0.25,
} as const;

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const RESOLUTIONS = ["1280x720", "1920x1080", "2560x1440", "3840x2160"] as const;

export const UI = {
  mobileBreakpointPx: 768,
  sidebarWidth: "16rem",
  sidebarWidthMobile: "18rem",
  sidebarWidthCollapsed: "3rem",
  sidebarCookie: "sidebar_state",
  sidebarCookieMaxAgeSeconds: 60 * 60 * 24 * 7,
  toastsVisible: 3,
  toastDurationMs: 4000,
  tooltipDelayMs: 700,
} as const;
