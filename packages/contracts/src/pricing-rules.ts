import type { CalendarDay, VatCategory, VatPerRate } from "./vat.ts";

/** What pricing a cart takes and gives (pricing.ts): the cart's lines, the rules of the day, the priced cart. */

export interface PriceLine {
  /** The cart line. */
  id: string;
  product_id: string;
  /** Units; a weighed label is one unit priced for its weight. */
  quantity: number;
  /** The ordinary price of one unit in this store (its store price where it has one), öre. */
  unit_price_ore: number;
  vat_category: VatCategory;
  /** Deposit (pant) per unit, öre; taxed at the line's rate, never discounted. */
  pant_ore?: number;
  /** A weighed label: no campaign per unit and no multi-buy. */
  weighed?: boolean;
}

/** Days both inclusive, in the store's calendar. */
export interface Validity {
  from: CalendarDay;
  to: CalendarDay;
  /** Only for members of the chain; others see it as "Medlemspris". */
  members_only?: boolean;
}

export interface Campaign extends Validity {
  id: string;
  product_id: string;
  price_ore: number;
}

/**
 * A multi-buy over one product or a set (mix and match): `buy` units for the
 * price of the `buy - 1` dearest ("3 för 2", "köp 2, få 1 på köpet"), or `buy`
 * units for an amount ("2 för 35 kr"). An amount never takes off more than the
 * cheapest unit of its group costs, so taking one item out never makes the
 * cart dearer.
 */
export interface Offer extends Validity {
  id: string;
  /** As the cart and the receipt show it: "3 för 2". */
  label: string;
  product_ids: readonly string[];
  buy: number;
  deal: { kind: "one_free" } | { kind: "amount"; amount_ore: number };
  /** How many times a visit may use it; null for no limit. */
  limit_per_visit: number | null;
}

export interface PricingRules {
  campaigns: readonly Campaign[];
  offers: readonly Offer[];
}

export interface PricingContext {
  /** The store's calendar day of the pricing. */
  day: CalendarDay;
  member: boolean;
  /** Each category's VAT rate on that day, hundredths of a percent. */
  vatRateOf: (category: VatCategory) => number;
}

export interface PricedLine {
  id: string;
  product_id: string;
  quantity: number;
  ordinary_unit_ore: number;
  /** After the day's campaign or member price, if one is lower. */
  unit_price_ore: number;
  campaign_id: string | null;
  members_price: boolean;
  total_ore: number;
  /** The part of the cart's multi-buy discounts taken from this line's goods, öre; never more than total_ore. */
  discount_ore: number;
  vat_rate_bp: number;
  /** The pant under the line ("Pant 2,00" per unit), or null. */
  pant: { unit_ore: number; total_ore: number } | null;
}

export interface Discount {
  offer_id: string;
  label: string;
  /** How many groups it took. */
  times: number;
  /** What it takes off, öre (a positive number). */
  amount_ore: number;
  /** The same amount split over the rates of the goods it was taken from. */
  per_rate: { vat_rate_bp: number; amount_ore: number }[];
  /** The same amount split over the cart lines it was taken from (by line id): what a refund of them gives back less. */
  per_line: { line_id: string; amount_ore: number }[];
}

export interface PricedCart {
  lines: PricedLine[];
  discounts: Discount[];
  /** Per rate: goods less discounts plus pant, and the VAT in it. */
  vat: VatPerRate[];
  goods_ore: number;
  pant_ore: number;
  discount_ore: number;
  total_ore: number;
  vat_ore: number;
}
