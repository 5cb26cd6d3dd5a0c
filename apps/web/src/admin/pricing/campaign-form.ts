import type { CampaignInput, PriceCampaign } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";
import { KRONOR_TEXT, kronorOf } from "./dated-rule.ts";

/** What the campaign dialog's inputs hold: the price as typed; converted by toCampaignInput on submit. */
export interface CampaignFormValues {
  /** The product picked, or "" before one is. */
  product_id: string;
  /** A store's id, or "" for every store. */
  store_id: string;
  /** Kronor as typed: "19.90" or "19,90". */
  price: string;
  /** YYYY-MM-DD, as a date input gives them. */
  starts_on: string;
  ends_on: string;
  /** For members of the chain only. */
  members_only: boolean;
}

/** The product as the dialog shows it beside the search: its name, SKU and ordinary price. */
export interface PickedProduct {
  id: string;
  name: string;
  sku: string;
  /** Kronor: the campaign price must be below it. */
  price: number;
}

/** The dialog's fields top to bottom, which is also the order the first problem takes focus in. */
export const CAMPAIGN_FIELDS = [
  "product_id",
  "store_id",
  "price",
  "starts_on",
  "ends_on",
  "members_only",
] as const satisfies readonly (keyof CampaignFormValues)[];

/** The API's paths are the form's names. */
export const campaignFieldOf = fieldMapper<CampaignFormValues>(CAMPAIGN_FIELDS);

export const firstCampaignField = (fields: readonly (keyof CampaignFormValues)[]) =>
  CAMPAIGN_FIELDS.find((field) => fields.includes(field));

/**
 * The form's values: the campaign's when editing; else nothing picked yet, in
 * `store` (every store for a platform admin, their first store for a store admin).
 */
export function toFormValues(campaign: PriceCampaign | undefined, store: string): CampaignFormValues {
  return {
    product_id: campaign?.product_id ?? "",
    store_id: campaign ? (campaign.store_id ?? "") : store,
    price: campaign ? campaign.price.toFixed(2) : "",
    starts_on: campaign?.starts_on ?? "",
    ends_on: campaign?.ends_on ?? "",
    members_only: campaign?.members_only ?? false,
  };
}

/** The product being edited, as the dialog shows it; none for a new campaign. */
export const pickedOf = (campaign: PriceCampaign | undefined): PickedProduct | null =>
  campaign
    ? { id: campaign.product_id, name: campaign.product_name, sku: campaign.sku, price: campaign.ordinary_price }
    : null;

/**
 * What is wrong with a typed price before it is sent, or undefined: it must be
 * there and be kronor with at most two decimals. Whether it is below the
 * ordinary price is the server's to judge.
 */
export function priceProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter the campaign price in kronor";
  if (!KRONOR_TEXT.test(trimmed)) return "The price is a number of kronor, e.g. 19.90";
  return undefined;
}

/** The body of POST and PUT: a decimal comma read as a point, no store as every store. */
export function toCampaignInput(values: CampaignFormValues): CampaignInput {
  return {
    product_id: values.product_id,
    store_id: values.store_id === "" ? null : values.store_id,
    price: kronorOf(values.price),
    starts_on: values.starts_on,
    ends_on: values.ends_on,
    members_only: values.members_only,
  };
}
