import { COUNTRY_CODES } from "@glide/contracts";
import { useUrlParams } from "../../lib/use-url-params.ts";

/** The screen's tabs, in order. */
export const PRICING_TABS = ["vat", "pant", "store-prices", "price-groups", "campaigns", "offers"] as const;
export type PricingTab = (typeof PRICING_TABS)[number];

export const DEFAULT_COUNTRY = "SE";

const isTab = (value: string | null): value is PricingTab =>
  (PRICING_TABS as readonly (string | null)[]).includes(value);
const isCountry = (value: string | null): value is string =>
  (COUNTRY_CODES as readonly (string | null)[]).includes(value);

/**
 * The tab and its country (VAT rates, pant), kept in the URL (?tab=vat&country=NO) like the
 * other screens keep their filters, so a reload or a shared link shows the same list.
 * An unknown value reads as the default. The Store prices tab keeps its store the same way
 * (?tab=store-prices&store=<id>); a new store starts its list at the first page.
 */
export function usePricingParams() {
  const [params, write] = useUrlParams();
  const tab = params.get("tab");
  const country = params.get("country");
  return {
    tab: isTab(tab) ? tab : PRICING_TABS[0],
    setTab: (next: string) => write({ tab: isTab(next) ? next : null }),
    country: isCountry(country) ? country : DEFAULT_COUNTRY,
    setCountry: (next: string) => write({ tab: isTab(tab) ? tab : PRICING_TABS[0], country: next }),
    /** The store whose prices are shown; "" until one is chosen. */
    store: params.get("store") ?? "",
    setStore: (next: string) => write({ tab: isTab(tab) ? tab : PRICING_TABS[0], store: next, page: null }),
    /** The price group shown on the Price groups tab (?tab=price-groups&group=<id>); "" for the first. */
    group: params.get("group") ?? "",
    setGroup: (next: string) =>
      write({ tab: isTab(tab) ? tab : PRICING_TABS[0], group: next || null, page: null, search: null }),
  };
}
