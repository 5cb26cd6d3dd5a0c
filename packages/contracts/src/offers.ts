import { z } from "zod";
import {
  CAMPAIGN_MAX_DAYS,
  CAMPAIGN_PRICE_MAX,
  campaignDays,
  campaignStatusSchema,
  datedRuleListQuery,
  membersOnlyInput,
} from "./campaigns.ts";
import { calendarDaySchema } from "./vat.ts";

/**
 * Multi-buy offers as admins keep them: `buy` units of one product or of a
 * set (mix and match) for the price of the `buy - 1` dearest ("3 för 2",
 * "köp 2, få 1 på köpet": kind one_free), or for an amount ("2 för 35 kr":
 * kind amount), in one store or every store (store_id null), from one day to
 * another in each store's calendar, at most limit_per_visit times a visit.
 * Named MultiBuyOffer… apart from pricing's `Offer` (the rule a cart is
 * priced with). The status and the longest run are the campaigns'.
 */

export const MULTI_BUY_OFFER_KINDS = ["one_free", "amount"] as const;
export type MultiBuyOfferKind = (typeof MULTI_BUY_OFFER_KINDS)[number];

export const MULTI_BUY_OFFER_LIMITS = {
  label: 40,
  buy: { min: 2, max: 20 },
  products: 50,
  perVisit: { min: 1, max: 99 },
  days: CAMPAIGN_MAX_DAYS,
} as const;

export const MULTI_BUY_OFFERS_PAGE_SIZE = { default: 20, max: 100 } as const;

/** "3 för 2" or "2 för 35,00 kr": the deal as the console and the kvitto say it. */
export function multiBuyDealText(offer: { kind: MultiBuyOfferKind; buy: number; amount: number | null }): string {
  if (offer.kind === "one_free") return `${offer.buy} för ${offer.buy - 1}`;
  const kronor = (offer.amount ?? 0).toFixed(2).replace(".", ",");
  return `${offer.buy} för ${kronor} kr`;
}

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a whole number`) })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be from ${min} to ${max}`)
    .max(max, `${field} must be from ${min} to ${max}`);

const amount = z
  .number({ error: "amount is a number of kronor" })
  .min(0, "amount cannot be negative")
  .max(CAMPAIGN_PRICE_MAX, `amount must be at most ${CAMPAIGN_PRICE_MAX.toLocaleString("en-US")} kr`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "amount allows at most two decimals");

/**
 * The body of POST /api/v1/offers and PUT /api/v1/offers/:id (every field,
 * products too, as a replacement). The server judges the rest: known
 * products and store, an amount below what `buy` units of the cheapest
 * product cost, and who may write it.
 */
export const multiBuyOfferInputSchema = z
  .strictObject({
    label: z
      .string({ error: "label is required" })
      .trim()
      .min(1, "label is required")
      .max(MULTI_BUY_OFFER_LIMITS.label, `label must be at most ${MULTI_BUY_OFFER_LIMITS.label} characters`),
    kind: z.enum(MULTI_BUY_OFFER_KINDS, { error: `kind must be one of ${MULTI_BUY_OFFER_KINDS.join(", ")}` }),
    buy: whole("buy", MULTI_BUY_OFFER_LIMITS.buy.min, MULTI_BUY_OFFER_LIMITS.buy.max),
    /** Kronor for the `buy` units, kind amount only. */
    amount: amount.nullable().optional(),
    product_ids: z
      .array(z.uuid("product_ids must be UUIDs"), { error: "product_ids is a list of product ids" })
      .min(1, "product_ids needs at least one product")
      .max(MULTI_BUY_OFFER_LIMITS.products, `product_ids takes at most ${MULTI_BUY_OFFER_LIMITS.products} products`)
      .refine((ids) => new Set(ids).size === ids.length, "product_ids names a product twice"),
    /** null: every store of the chain (platform admins only). */
    store_id: z.uuid("store_id must be a UUID").nullable(),
    starts_on: calendarDaySchema("starts_on"),
    ends_on: calendarDaySchema("ends_on"),
    /** null: no limit. */
    limit_per_visit: whole(
      "limit_per_visit",
      MULTI_BUY_OFFER_LIMITS.perVisit.min,
      MULTI_BUY_OFFER_LIMITS.perVisit.max,
    ).nullable(),
    /** For members of the chain only; others see it as "Medlemspris". */
    members_only: membersOnlyInput,
  })
  .refine((v) => v.kind !== "amount" || (v.amount !== null && v.amount !== undefined), {
    path: ["amount"],
    message: "amount is required for a fixed-price offer",
  })
  .refine((v) => v.kind !== "one_free" || v.amount === null || v.amount === undefined, {
    path: ["amount"],
    message: "amount is only for a fixed-price offer",
  })
  .refine((v) => v.ends_on >= v.starts_on, { path: ["ends_on"], message: "ends_on cannot be before starts_on" })
  .refine((v) => v.ends_on < v.starts_on || campaignDays(v.starts_on, v.ends_on) <= MULTI_BUY_OFFER_LIMITS.days, {
    path: ["ends_on"],
    message: `An offer may run at most ${MULTI_BUY_OFFER_LIMITS.days} days`,
  });
export type MultiBuyOfferInput = z.input<typeof multiBuyOfferInputSchema>;

/** One product an offer takes, with its catalogue price in kronor. */
export const multiBuyOfferProductSchema = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string(),
  price: z.number(),
});

/** One offer as the console lists it. */
export const multiBuyOfferSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(MULTI_BUY_OFFER_KINDS),
  buy: z.number(),
  /** Kronor for `buy` units; null for one_free. */
  amount: z.number().nullable(),
  /** By name. */
  products: z.array(multiBuyOfferProductSchema),
  store_id: z.string().nullable(),
  store_name: z.string().nullable(),
  starts_on: z.string(),
  ends_on: z.string(),
  limit_per_visit: z.number().nullable(),
  /** For members of the chain only. */
  members_only: z.boolean(),
  status: campaignStatusSchema,
});
export type MultiBuyOffer = z.infer<typeof multiBuyOfferSchema>;

/** GET /api/v1/offers answers an array of these; the number of all matches is in X-Total-Count. */
export const multiBuyOfferListSchema = z.array(multiBuyOfferSchema);

/** GET /api/v1/offers: as the campaigns' list; the text matches the label too. */
export const multiBuyOfferListQuerySchema = datedRuleListQuery(MULTI_BUY_OFFERS_PAGE_SIZE);

/** An offer's id in the path; one that is no UUID names no offer and is answered 404. */
export const multiBuyOfferIdParams = z.object({ id: z.string().max(200, "offer id is too long") });
