import { z } from "zod";
import { type CalendarDay, calendarDaySchema } from "./vat.ts";

/**
 * Campaigns ("Kampanj"): a time-bound price for one product in one store, or
 * in every store of the chain (store_id null), from one day to another, both
 * inclusive and each store's own calendar. A scan takes the campaign price
 * when it is valid on the store's day and below the store's ordinary price;
 * the cart and the kvitto show the ordinary price beside it.
 */

/** Where a campaign stands on today's day: in Sweden for a chain-wide one, in the store's time zone for a store's own. */
export const CAMPAIGN_STATUSES = ["upcoming", "active", "ended"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES, {
  error: `status must be one of ${CAMPAIGN_STATUSES.join(", ")}`,
});

/** The longest a campaign may run, first and last day counted: a year, a leap year's too. */
export const CAMPAIGN_MAX_DAYS = 366;

/** The highest campaign price, in kronor (as a product's price). */
export const CAMPAIGN_PRICE_MAX = 10_000_000;

export const CAMPAIGNS_PAGE_SIZE = { default: 20, max: 100 } as const;

const DAY_MS = 86_400_000;

/**
 * A campaign's or offer's members_only in a body: left out it is false, so a
 * client that does not know of members still writes rules for everyone.
 */
export const membersOnlyInput = z.boolean({ error: "members_only must be true or false" }).default(false);

/** Days from the first to the last, both counted: 2026-12-01 to 2026-12-01 is 1. */
export function campaignDays(startsOn: CalendarDay, endsOn: CalendarDay): number {
  return Math.round((Date.parse(`${endsOn}T00:00:00Z`) - Date.parse(`${startsOn}T00:00:00Z`)) / DAY_MS) + 1;
}

const kronor = z
  .number({ error: (i) => (i.input === undefined ? "price is required" : "price is a number of kronor") })
  .min(0, "price cannot be negative")
  .max(CAMPAIGN_PRICE_MAX, `price must be at most ${CAMPAIGN_PRICE_MAX.toLocaleString("en-US")} kr`)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "price allows at most two decimals");

/**
 * The body of POST /api/v1/campaigns and PUT /api/v1/campaigns/:id (every
 * field, as a replacement). The server judges the rest: a known product and
 * store, a price below the product's ordinary price, and who may write it.
 */
export const campaignInputSchema = z
  .strictObject({
    product_id: z.uuid("product_id must be a UUID"),
    /** null: every store of the chain (platform admins only). */
    store_id: z.uuid("store_id must be a UUID").nullable(),
    /** Kronor, e.g. 19.90. */
    price: kronor,
    starts_on: calendarDaySchema("starts_on"),
    ends_on: calendarDaySchema("ends_on"),
    /** For members of the chain only; others see it as "Medlemspris". */
    members_only: membersOnlyInput,
  })
  .refine((v) => v.ends_on >= v.starts_on, { path: ["ends_on"], message: "ends_on cannot be before starts_on" })
  .refine((v) => v.ends_on < v.starts_on || campaignDays(v.starts_on, v.ends_on) <= CAMPAIGN_MAX_DAYS, {
    path: ["ends_on"],
    message: `A campaign may run at most ${CAMPAIGN_MAX_DAYS} days`,
  });
export type CampaignInput = z.input<typeof campaignInputSchema>;

/** One campaign as the console lists it. */
export const campaignSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  sku: z.string(),
  product_name: z.string(),
  /** The catalogue's price, kronor: what the campaign price must be below. */
  ordinary_price: z.number(),
  /** null: every store of the chain. */
  store_id: z.string().nullable(),
  store_name: z.string().nullable(),
  /** Kronor. */
  price: z.number(),
  starts_on: z.string(),
  ends_on: z.string(),
  /** For members of the chain only. */
  members_only: z.boolean(),
  status: campaignStatusSchema,
});
/** Named apart from pricing's `Campaign` (the rule a cart is priced with). */
export type PriceCampaign = z.infer<typeof campaignSchema>;

/** GET /api/v1/campaigns answers an array of these; the number of all matches is in X-Total-Count. */
export const campaignListSchema = z.array(campaignSchema);

/**
 * The list query campaigns and offers share: the rules that count in a store
 * (its own and the chain-wide ones), by status, by text (a product's name or
 * SKU, an offer's label too; % and _ matched literally), a page at a time.
 */
export const datedRuleListQuery = (pageSize: { default: number; max: number }) =>
  z.object({
    store_id: z.uuid("store_id must be a UUID").optional(),
    status: campaignStatusSchema.optional(),
    search: z.string().max(200, "search must be at most 200 characters").optional(),
    limit: z.coerce
      .number({ error: "limit must be a whole number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(pageSize.max, `limit must be at most ${pageSize.max}`)
      .default(pageSize.default),
    offset: z.coerce
      .number({ error: "offset must be a whole number" })
      .int("offset must be a whole number")
      .min(0, "offset must be 0 or more")
      .default(0),
  });

/** GET /api/v1/campaigns */
export const campaignListQuerySchema = datedRuleListQuery(CAMPAIGNS_PAGE_SIZE);

/**
 * A campaign's id in the path. Any text is taken: an id that is no UUID names
 * no campaign, so it is answered 404 like an unknown one.
 */
export const campaignIdParams = z.object({ id: z.string().max(200, "campaign id is too long") });
