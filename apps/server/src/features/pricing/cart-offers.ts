import type { CalendarDay, CartDiscount, Discount, Offer, PricedCart, PriceLine, VatCategory } from "@glide/contracts";
import { priceCart } from "@glide/contracts";
import { type Db, queryPrepared, queryRows, sql, type Tx } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";

/**
 * Multi-buy offers on a visit's cart. A line's unit price is fixed by its
 * scan (store price, the day's campaign); the offers are evaluated anew on
 * every read of the cart, so a removal takes a discount away and the
 * discount the phone shows is the one the exit charges. Weight and price
 * labels take no offer. Pricing itself is the pure priceCart of
 * packages/contracts.
 */

type OfferRow = {
  id: string;
  label: string;
  kind: "one_free" | "amount";
  buy: number;
  amount_ore: number | null;
  limit_per_visit: number | null;
  starts_on: CalendarDay;
  ends_on: CalendarDay;
  day: CalendarDay;
  product_ids: string[];
};

/** What pricing needs of a cart line. */
export type OfferLine = {
  id: string;
  product_id: string;
  quantity: number;
  unit_price_ore: number;
  pant_ore: number;
  /** A weight or price label's line: no offer takes it. */
  labelled: boolean;
  vat_category: VatCategory;
};

/**
 * The offers that count for the visit at `at`: its store's own and the
 * chain-wide ones, valid on the store's calendar day of `at`, that take a
 * product of its cart. One statement; none when the cart holds nothing an
 * offer takes.
 */
export async function offersOfVisit(
  db: Db | Tx,
  sessionId: string,
  at: Date,
): Promise<{ day: CalendarDay | null; offers: Offer[] }> {
  const rows = await queryRows<OfferRow>(
    db,
    sql`with visit as (${visitDay(sessionId, at)}) ${offersSelect} order by o.id`,
  );
  return { day: rows[0]?.day ?? null, offers: rows.map(toOffer) };
}

/** The visit with its store's calendar day of `at`. */
const visitDay = (sessionId: string, at: Date) =>
  sql`select s.id, s.store_id, (${at.toISOString()}::timestamptz at time zone st.timezone)::date as day
      from shopping_sessions s join stores st on st.id = s.store_id where s.id = ${sessionId}`;

/** The offers valid in the `visit` CTE's store on its day that take a product of its cart. */
const offersSelect = sql`select o.id, o.label, o.kind, o.buy, o.amount_ore, o.limit_per_visit,
    to_char(o.starts_on, 'YYYY-MM-DD') as starts_on, to_char(o.ends_on, 'YYYY-MM-DD') as ends_on,
    to_char(v.day, 'YYYY-MM-DD') as day,
    (select json_agg(op.product_id) from offer_products op where op.offer_id = o.id) as product_ids
  from visit v join offers o on (o.store_id is null or o.store_id = v.store_id)
    and v.day between o.starts_on and o.ends_on
  where exists (select 1 from offer_products op join cart_items i on i.product_id = op.product_id
                where op.offer_id = o.id and i.session_id = v.id)`;

const toOffer = (row: OfferRow): Offer => ({
  id: row.id,
  label: row.label,
  product_ids: row.product_ids,
  buy: row.buy,
  deal: row.kind === "amount" ? { kind: "amount", amount_ore: row.amount_ore ?? 0 } : { kind: "one_free" },
  limit_per_visit: row.limit_per_visit,
  from: row.starts_on,
  to: row.ends_on,
});

/**
 * The cart's discounts and total after a change, in one prepared statement
 * (its lines and its offers together): what a scan answers beside its line,
 * so the phone shows the server's total without reading the whole cart.
 */
export async function cartTotals(
  db: Db | Tx,
  sessionId: string,
  at: Date,
): Promise<{ discounts: CartDiscount[]; total: number }> {
  const [row] = await queryPrepared<{ lines: OfferLine[] | null; offers: OfferRow[] | null }>(
    db,
    "cart_totals",
    sql`with visit as (${visitDay(sessionId, at)}), found as (${offersSelect})
        select (select json_agg(json_build_object('id', i.id, 'product_id', i.product_id, 'quantity', i.quantity,
                  'unit_price_ore', i.unit_price_ore, 'pant_ore', i.pant_ore,
                  'labelled', i.line_key like 'label:%', 'vat_category', 'standard') order by i.created_at, i.id)
                from cart_items i where i.session_id = ${sessionId}::uuid) as lines,
          (select json_agg(found order by found.id) from found) as offers`,
  );
  const offers = row?.offers ?? [];
  const priced = priceWithOffers(row?.lines ?? [], { day: offers[0]?.day ?? null, offers: offers.map(toOffer) });
  return { discounts: priced.discounts.map(discountAnswer), total: fromOre(priced.total_ore) };
}

/**
 * The cart priced with its offers: discounts (each split over the lines it
 * was taken from), and per line the part of them it gives. `vatRateOf`
 * matters only for the VAT of the order; the cart's answer passes none.
 */
export function priceWithOffers(
  lines: readonly OfferLine[],
  found: { day: CalendarDay | null; offers: Offer[] },
  vatRateOf: (category: VatCategory) => number = () => 0,
): PricedCart {
  const priceLines: PriceLine[] = lines.map((line) => ({
    id: line.id,
    product_id: line.product_id,
    quantity: line.quantity,
    unit_price_ore: line.unit_price_ore,
    vat_category: line.vat_category,
    pant_ore: line.pant_ore,
    weighed: line.labelled,
  }));
  return priceCart(
    priceLines,
    { campaigns: [], offers: found.offers },
    { day: found.day ?? "0000-01-01", member: false, vatRateOf },
  );
}

/** A discount as the cart and the receipt answer it: kronor off, a positive number. */
export const discountAnswer = (
  discount: Pick<Discount, "label" | "times" | "amount_ore"> & { offer_id: string | null },
): CartDiscount => ({
  offer_id: discount.offer_id,
  label: discount.label,
  times: discount.times,
  amount: fromOre(discount.amount_ore),
});
