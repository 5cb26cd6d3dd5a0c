import type {
  CalendarDay,
  CartDiscount,
  CartVoucher,
  Discount,
  Offer,
  PricedCart,
  PriceLine,
  VatCategory,
} from "@glide/contracts";
import { priceCart } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { type Db, queryPrepared, sql, type Tx } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import { type DayOffers, type OfferBook, offersTouching } from "./offer-book.ts";
import { type OfferRow, offerColumns, toOffer } from "./offer-rows.ts";

/**
 * Multi-buy offers on a visit's cart. A line's unit price is fixed by its
 * scan (store price, the day's campaign, a member's price); the offers are
 * evaluated anew on every read of the cart, so a removal takes a discount
 * away and the discount the phone shows is the one the exit charges. Weight
 * and price labels take no offer. Members-only offers count for members of
 * the chain; to anyone else the cart also says what it would cost a member
 * ("Medlemspris"). Pricing itself is the pure priceCart of packages/contracts.
 */

/** What pricing needs of a cart line. */
export type OfferLine = {
  id: string;
  product_id: string;
  quantity: number;
  unit_price_ore: number;
  pant_ore: number;
  /** For a shopper who is no member, the members' lower price for one; null otherwise. */
  member_unit_ore: number | null;
  /** A weight or price label's line: no offer takes it. */
  labelled: boolean;
  vat_category: VatCategory;
};

/** A pant machine voucher on the cart, paid with. */
export type VisitVoucher = { code: string; amount_ore: number };

/** The visit's day in its store, whether its shopper is a member, the offers that may apply, and its vouchers. */
export type VisitOffers = { day: CalendarDay | null; member: boolean; offers: Offer[]; vouchers: VisitVoucher[] };

/** The visit with its store's calendar day of `at` and its shopper's membership. */
const visitDay = (sessionId: string, at: Date) =>
  sql`select s.id, s.store_id, (${at.toISOString()}::timestamptz at time zone st.timezone)::date as day,
        c.member_since is not null as member
      from shopping_sessions s join stores st on st.id = s.store_id join customers c on c.id = s.customer_id
      where s.id = ${sessionId}::uuid`;

/** The ids of the valid offers that take a product of the `visit` row's cart. */
const touchedOffers = sql`select o.id
  from (select distinct op.offer_id from cart_items i join offer_products op on op.product_id = i.product_id
        where i.session_id = v.id) touched
  join offers o on o.id = touched.offer_id
  where (o.store_id is null or o.store_id = v.store_id) and v.day between o.starts_on and o.ends_on`;

/**
 * The offers valid in the `visit` row's store on its day that take a product
 * of its cart, members' ones too. Found from the cart's products
 * (offer_products by product), so a store with many offers costs a scan only
 * those that touch its cart.
 */
const offersOf = sql`(select json_agg(x order by x.id) from (
    select ${offerColumns} from (${touchedOffers}) t join offers o on o.id = t.id) x)`;

/** The pant machine vouchers of the visit `session` (an SQL expression), in the order they were scanned. */
export const vouchersOf = (session: SQL) => sql`(select json_agg(json_build_object('code', pv.code,
    'amount_ore', pv.amount_ore) order by pv.scanned_at, pv.code) from pant_vouchers pv where pv.session_id = ${session})`;

/** An aggregate over `cart_items i`: its lines as LineTuples, in the order they were added (null for none). */
export const lineTuples = sql`json_agg(json_build_array(i.id, i.product_id, i.quantity, i.unit_price_ore, i.pant_ore,
  i.member_unit_ore, i.line_key like 'label:%') order by i.created_at, i.id)`;

/** Every line of the visit `session` (an SQL expression) as a LineTuple, in the order they were added. */
export const cartLinesOf = (session: SQL) =>
  sql`(select ${lineTuples} from cart_items i where i.session_id = ${session})`;

type VisitRow = {
  day: CalendarDay | null;
  member: boolean | null;
  offers: OfferRow[] | null;
  vouchers: VisitVoucher[] | null;
};
const toVisitOffers = (row: VisitRow | undefined): VisitOffers => ({
  day: row?.day ?? null,
  member: row?.member ?? false,
  offers: (row?.offers ?? []).map(toOffer),
  vouchers: row?.vouchers ?? [],
});

/**
 * The offers that count for the visit at `at`: its store's own and the
 * chain-wide ones, valid on the store's calendar day of `at`, that take a
 * product of its cart; with the day and the shopper's membership. One
 * prepared statement.
 */
export async function offersOfVisit(db: Db | Tx, sessionId: string, at: Date): Promise<VisitOffers> {
  const [row] = await queryPrepared<VisitRow>(
    db,
    "visit_offers",
    sql`select to_char(v.day, 'YYYY-MM-DD') as day, v.member, ${offersOf} as offers, ${vouchersOf(sql`v.id`)} as vouchers
        from (${visitDay(sessionId, at)}) v`,
  );
  return toVisitOffers(row);
}

/**
 * The cart's discounts and totals after a change, in one prepared statement:
 * its offers, its vouchers, the sum of all its lines, and only the lines an
 * offer or a members' price may change (the rest count at their price), so
 * a scan does not read every line of a long cart back. What a scan answers
 * beside its line, so the phone shows the server's total.
 */
export async function cartTotals(db: Db | Tx, sessionId: string, at: Date) {
  const [row] = await queryPrepared<VisitRow & { lines: OfferLine[] | null; goods_ore: number | string }>(
    db,
    "cart_totals",
    sql`select to_char(v.day, 'YYYY-MM-DD') as day, v.member, ${offersOf} as offers, ${vouchersOf(sql`v.id`)} as vouchers,
          (select json_agg(json_build_object('id', i.id, 'product_id', i.product_id, 'quantity', i.quantity,
                    'unit_price_ore', i.unit_price_ore, 'pant_ore', i.pant_ore, 'member_unit_ore', i.member_unit_ore,
                    'labelled', i.line_key like 'label:%', 'vat_category', 'standard') order by i.created_at, i.id)
            from cart_items i where i.session_id = v.id
              and (i.member_unit_ore is not null or i.product_id in (
                select op.product_id from offer_products op where op.offer_id in (${touchedOffers})))) as lines,
          (select coalesce(sum(i.quantity::bigint * (i.unit_price_ore + i.pant_ore)), 0)
            from cart_items i where i.session_id = v.id) as goods_ore
        from (${visitDay(sessionId, at)}) v`,
  );
  const lines = row?.lines ?? [];
  const taken = lines.reduce((sum, line) => sum + (line.unit_price_ore + line.pant_ore) * line.quantity, 0);
  return cartAnswer(lines, toVisitOffers(row), Number(row?.goods_ore ?? 0) - taken);
}

/** A cart line as the book's statements read it, in few bytes: id, product, quantity, unit, pant, member's unit, label. */
export type LineTuple = [string, string, number, number, number, number | null, boolean];
export const tupleLine = ([
  id,
  product_id,
  quantity,
  unit_price_ore,
  pant_ore,
  member_unit_ore,
  labelled,
]: LineTuple): OfferLine => ({
  id,
  product_id,
  quantity,
  unit_price_ore,
  pant_ore,
  member_unit_ore,
  labelled,
  vat_category: "standard",
});

/** What the book's statements read of the visit beside its lines. */
export type VisitFacts = { store_id: string; day: CalendarDay; member: boolean; vouchers: VisitVoucher[] | null };

/**
 * The cart's discounts and totals as cartTotals answers them, with the
 * offers from this instance's `book` (offer-book.ts) instead of the
 * statement: one prepared statement reads the visit and every line (a few
 * numbers each); only the offers of the day that take a product of the cart
 * are priced. A scan's answer and the live cart use this; a checkout prices
 * from the database in its own transaction.
 */
export async function cartTotalsFromBook(db: Db | Tx, sessionId: string, at: Date, book: OfferBook) {
  const [row] = await queryPrepared<VisitFacts & { lines: LineTuple[] | null }>(
    db,
    "cart_lines",
    sql`select v.store_id, to_char(v.day, 'YYYY-MM-DD') as day, v.member, ${vouchersOf(sql`v.id`)} as vouchers,
          ${cartLinesOf(sql`v.id`)} as lines
        from (${visitDay(sessionId, at)}) v`,
  );
  if (!row) return cartAnswer([], toVisitOffers(undefined));
  return priceFromBook((row.lines ?? []).map(tupleLine), row, await book.of(row.store_id, row.day));
}

/** The visit's facts for pricing lines already read (readCart), with the offers from `book`. */
export async function offersFromBook(
  db: Db | Tx,
  sessionId: string,
  at: Date,
  book: OfferBook,
): Promise<{ facts: VisitFacts; day: DayOffers } | null> {
  const [facts] = await queryPrepared<VisitFacts>(
    db,
    "visit_facts",
    sql`select v.store_id, to_char(v.day, 'YYYY-MM-DD') as day, v.member, ${vouchersOf(sql`v.id`)} as vouchers
        from (${visitDay(sessionId, at)}) v`,
  );
  return facts ? { facts, day: await book.of(facts.store_id, facts.day) } : null;
}

/**
 * `lines` priced with the offers of `day` that take one of their products;
 * the lines that neither such an offer nor a members' price can change count
 * at their price beside them (priceCart never sees them).
 */
export function priceFromBook(lines: readonly OfferLine[], facts: VisitFacts, day: DayOffers) {
  const offers = offersTouching(
    day,
    lines.map((line) => line.product_id),
  );
  const offered = new Set(offers.flatMap((offer) => offer.product_ids));
  const priced: OfferLine[] = [];
  let restOre = 0;
  for (const line of lines) {
    if (line.member_unit_ore !== null || offered.has(line.product_id)) priced.push(line);
    else restOre += (line.unit_price_ore + line.pant_ore) * line.quantity;
  }
  const found = { day: facts.day, member: facts.member, offers, vouchers: facts.vouchers ?? [] };
  return cartAnswer(priced, found, restOre);
}

/**
 * The cart's discounts, total, vouchers and what the card will pay, and (for
 * one who is no member) a member's total, as the API answers them. `restOre`
 * is the goods and pant of lines left out of `lines` because nothing can
 * change what they cost.
 */
export function cartAnswer(lines: readonly OfferLine[], found: VisitOffers, restOre = 0) {
  const priced = priceWithOffers(lines, found);
  const memberOre = memberTotalOre(lines, found);
  return totalsAnswer(
    priced.discounts,
    priced.total_ore + restOre,
    found.vouchers,
    memberOre === null ? null : memberOre + restOre,
  );
}

/**
 * The cart's answer from its discounts and what it costs after them: the
 * vouchers it is paid with, what the card will pay, and a member's total
 * when a member would pay less (null: not worked out, or not less).
 */
export function totalsAnswer(
  discounts: readonly Discount[],
  totalOre: number,
  vouchers: readonly VisitVoucher[],
  memberOre: number | null = null,
) {
  const vouchersOre = vouchers.reduce((sum, voucher) => sum + voucher.amount_ore, 0);
  return {
    discounts: discounts.map(discountAnswer),
    total: fromOre(totalOre),
    vouchers: vouchers.map(voucherAnswer),
    to_pay: fromOre(Math.max(0, totalOre - vouchersOre)),
    member_total: memberOre !== null && memberOre < totalOre ? fromOre(memberOre) : null,
  };
}

/** A voucher as the cart and the receipt answer it. */
export const voucherAnswer = (voucher: VisitVoucher): CartVoucher => ({
  code: voucher.code,
  amount: fromOre(voucher.amount_ore),
});

/**
 * The cart priced with its offers: discounts (each split over the lines it
 * was taken from), and per line the part of them it gives. `vatRateOf`
 * matters only for the VAT of the order; the cart's answer passes none.
 */
export function priceWithOffers(
  lines: readonly OfferLine[],
  found: VisitOffers,
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
    { day: found.day ?? "0000-01-01", member: found.member, vatRateOf },
  );
}

/**
 * What the lines would cost a member (members' prices fixed at the scans,
 * members-only offers too), in öre, for a shopper who is no member: with
 * the rest of the cart, the phone's "Medlemspris" when it is less than what
 * they pay. Null for a member, and when a member would get nothing more (no
 * members' price on a line, no members-only offer): the cart is then not
 * priced a second time.
 */
function memberTotalOre(lines: readonly OfferLine[], found: VisitOffers): number | null {
  if (found.member) return null;
  if (!found.offers.some((offer) => offer.members_only) && lines.every((line) => line.member_unit_ore === null))
    return null;
  const asMember = lines.map((line) => ({ ...line, unit_price_ore: line.member_unit_ore ?? line.unit_price_ore }));
  return priceWithOffers(asMember, { ...found, member: true }).total_ore;
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
