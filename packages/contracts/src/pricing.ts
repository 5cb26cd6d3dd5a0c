import { bestOfferRun, type OfferUnit } from "./pricing-offers.ts";
import type {
  Campaign,
  Discount,
  PricedCart,
  PricedLine,
  PriceLine,
  PricingContext,
  PricingRules,
  Validity,
} from "./pricing-rules.ts";
import { vatPerRate } from "./vat.ts";

/** Offers that share a product, transitively: groups that compete for the same units (scan-pricing on the server). */
export { competitors } from "./pricing-offers.ts";
export type * from "./pricing-rules.ts";

/**
 * Pricing a cart: lines at the store's price, campaigns of the day, member
 * prices, multi-buy offers (the best combination for the shopper), pant, and
 * VAT per rate on what is paid after discounts. Pure: the same cart, rules
 * and day always give the same answer, in öre, on the server and the phone.
 */

const valid = (rule: Validity, context: PricingContext) =>
  rule.from <= context.day && context.day <= rule.to && (!rule.members_only || context.member);

function priceLine(line: PriceLine, campaigns: readonly Campaign[], context: PricingContext): PricedLine {
  let best: Campaign | null = null;
  if (!line.weighed)
    for (const campaign of campaigns)
      if (
        campaign.product_id === line.product_id &&
        valid(campaign, context) &&
        campaign.price_ore < line.unit_price_ore
      )
        if (
          !best ||
          campaign.price_ore < best.price_ore ||
          (campaign.price_ore === best.price_ore && campaign.id < best.id)
        )
          best = campaign;
  const unit = best ? best.price_ore : line.unit_price_ore;
  const pant = line.pant_ore ? { unit_ore: line.pant_ore, total_ore: line.pant_ore * line.quantity } : null;
  return {
    id: line.id,
    product_id: line.product_id,
    quantity: line.quantity,
    ordinary_unit_ore: line.unit_price_ore,
    unit_price_ore: unit,
    campaign_id: best?.id ?? null,
    members_price: !!best?.members_only,
    total_ore: unit * line.quantity,
    discount_ore: 0,
    vat_rate_bp: context.vatRateOf(line.vat_category),
    pant,
  };
}

/** Prices a cart on a day: lines, discounts, VAT per rate, totals in öre. */
export function priceCart(lines: readonly PriceLine[], rules: PricingRules, context: PricingContext): PricedCart {
  const priced = lines.map((line) => priceLine(line, rules.campaigns, context));
  const units: OfferUnit[] = [];
  priced.forEach((line, index) => {
    if (lines[index]!.weighed) return;
    for (let i = 0; i < line.quantity; i++)
      units.push({
        product_id: line.product_id,
        price_ore: line.unit_price_ore,
        vat_rate_bp: line.vat_rate_bp,
        line: index,
      });
  });
  const offers = rules.offers.filter((offer) => valid(offer, context) && offer.buy >= 2);
  const discounts: Discount[] = bestOfferRun(units, offers).map((discount) => ({
    ...discount,
    per_line: discount.per_line.map((share) => {
      priced[share.line]!.discount_ore += share.amount_ore;
      return { line_id: priced[share.line]!.id, amount_ore: share.amount_ore };
    }),
  }));

  const parts: { totalOre: number; vatRateBp: number }[] = [];
  for (const line of priced) {
    parts.push({ totalOre: line.total_ore, vatRateBp: line.vat_rate_bp });
    if (line.pant) parts.push({ totalOre: line.pant.total_ore, vatRateBp: line.vat_rate_bp });
  }
  for (const discount of discounts)
    for (const share of discount.per_rate) parts.push({ totalOre: -share.amount_ore, vatRateBp: share.vat_rate_bp });
  const vat = vatPerRate(parts);
  const goods = priced.reduce((sum, line) => sum + line.total_ore, 0);
  const pant = priced.reduce((sum, line) => sum + (line.pant?.total_ore ?? 0), 0);
  const off = discounts.reduce((sum, discount) => sum + discount.amount_ore, 0);
  return {
    lines: priced,
    discounts,
    vat,
    goods_ore: goods,
    pant_ore: pant,
    discount_ore: off,
    total_ore: goods + pant - off,
    vat_ore: vat.reduce((sum, rate) => sum + rate.vatOre, 0),
  };
}
