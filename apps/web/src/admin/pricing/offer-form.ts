import type { MultiBuyOffer, MultiBuyOfferInput, MultiBuyOfferKind } from "@glide/contracts";
import type { Path } from "react-hook-form";
import { fieldMapper } from "../../lib/form-errors.ts";
import { KRONOR_TEXT, kronorOf } from "./dated-rule.ts";

/** A product the offer takes, as the dialog shows it in a chip. */
export interface OfferProduct {
  id: string;
  name: string;
  sku: string;
  /** Kronor at catalogue price: a fixed price must be below `buy` of the cheapest. */
  price: number;
}

/** What the offer dialog's inputs hold: numbers as typed; converted by toOfferInput on submit. */
export interface OfferFormValues {
  label: string;
  kind: MultiBuyOfferKind;
  /** Units as typed: "3". */
  buy: string;
  /** Kronor as typed, kind amount only: "35" or "35,50". */
  amount: string;
  products: OfferProduct[];
  /** A store's id, or "" for every store. */
  store_id: string;
  /** YYYY-MM-DD, as a date input gives them. */
  starts_on: string;
  ends_on: string;
  /** Times a visit as typed; "" for no limit. */
  limit_per_visit: string;
  /** For members of the chain only. */
  members_only: boolean;
}

/** The dialog's fields top to bottom, which is also the order the first problem takes focus in. */
export const OFFER_FIELDS = [
  "label",
  "kind",
  "buy",
  "amount",
  "products",
  "store_id",
  "starts_on",
  "ends_on",
  "limit_per_visit",
  "members_only",
] as const satisfies readonly (keyof OfferFormValues)[];

/** The API's paths are the form's names, but the products are named by their ids. */
export const offerFieldOf = fieldMapper<OfferFormValues>(OFFER_FIELDS, { product_ids: "products" });

export const firstOfferField = (fields: readonly Path<OfferFormValues>[]) =>
  OFFER_FIELDS.find((field) => fields.includes(field));

/**
 * The form's values: the offer's when editing; else "3 för 2" without
 * products, in `store` (every store for a platform admin, their first store
 * for a store admin).
 */
export function toFormValues(offer: MultiBuyOffer | undefined, store: string): OfferFormValues {
  return {
    label: offer?.label ?? "",
    kind: offer?.kind ?? "one_free",
    buy: String(offer?.buy ?? 3),
    amount: offer?.amount == null ? "" : offer.amount.toFixed(2),
    products: offer?.products.map((p) => ({ ...p })) ?? [],
    store_id: offer ? (offer.store_id ?? "") : store,
    starts_on: offer?.starts_on ?? "",
    ends_on: offer?.ends_on ?? "",
    limit_per_visit: offer?.limit_per_visit == null ? "" : String(offer.limit_per_visit),
    members_only: offer?.members_only ?? false,
  };
}

const WHOLE = /^\d+$/;

/** What is wrong with a typed number of units, or undefined: a whole number from 2 to 20. */
export function buyProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter how many units the deal takes";
  if (!WHOLE.test(trimmed) || Number(trimmed) < 2 || Number(trimmed) > 20) return "Buy is a whole number from 2 to 20";
  return undefined;
}

/**
 * What is wrong with a typed fixed price, or undefined: it must be there and
 * be kronor. Whether it is below what the units cost is the server's to judge.
 */
export function amountProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "Enter the price of the units together, in kronor";
  if (!KRONOR_TEXT.test(trimmed)) return "The price is a number of kronor, e.g. 35.00";
  return undefined;
}

/** What is wrong with a typed limit, or undefined: empty for none, else a whole number from 1 to 99. */
export function limitProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (!WHOLE.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 99) {
    return "The limit is a whole number from 1 to 99, or empty for none";
  }
  return undefined;
}

/** The body of POST and PUT: an amount only for a fixed price, no store as every store, no limit as null. */
export function toOfferInput(values: OfferFormValues): MultiBuyOfferInput {
  const limit = values.limit_per_visit.trim();
  return {
    label: values.label.trim(),
    kind: values.kind,
    buy: Number(values.buy.trim()),
    amount: values.kind === "amount" ? kronorOf(values.amount) : null,
    product_ids: values.products.map((p) => p.id),
    store_id: values.store_id === "" ? null : values.store_id,
    starts_on: values.starts_on,
    ends_on: values.ends_on,
    limit_per_visit: limit === "" ? null : Number(limit),
    members_only: values.members_only,
  };
}

/** The products with `product` added at the end, once. */
export const withProduct = (products: readonly OfferProduct[], product: OfferProduct): OfferProduct[] =>
  products.some((p) => p.id === product.id) ? [...products] : [...products, product];

/** "Kaffe, Te +2 more": the first `shown` names and how many more there are. */
export function productNames(products: readonly { name: string }[], shown = 2): string {
  const names = products
    .slice(0, shown)
    .map((p) => p.name)
    .join(", ");
  const more = products.length - shown;
  return more > 0 ? `${names} +${more} more` : names;
}
