import type { Cart, CartItem, NetContentUnit, VatCategory } from "@glide/contracts";
import { comparisonPriceAnswer } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { linePant } from "../pant/pant.ts";
import { cartAnswer, offersFromBook, offersOfVisit, priceFromBook } from "../pricing/cart-offers.ts";
import type { OfferBook } from "../pricing/offer-book.ts";
import { kronorOrNull, ordinaryPriceOf, ordinaryUnitPrice } from "../pricing/shelf-price.ts";
import { loadSession } from "./cart-visit.ts";

/** A cart line with its product, as the cart's statements read it. */
export type ItemRow = {
  id: string;
  quantity: number;
  unit_price_ore: number;
  /** Öre of pant for one, fixed when the line was made; 0 without. */
  pant_ore: number;
  /** The store's ordinary price for one when a campaign fixed unit_price_ore; null otherwise. */
  ordinary_unit_ore: number | null;
  /** For a shopper who is no member, the members' lower price for one ("Medlemspris"); null otherwise. */
  member_unit_ore: number | null;
  weight_grams: number | null;
  product_id: string;
  name: string;
  image_url: string | null;
  /** The line's key: the product's id, or "label:" and the code for a price or weight label. */
  line_key: string;
  /** The store's price of the product (per kilogram for weighed goods) and its net content, for the jämförpris. */
  price_ore: number;
  net_content_milli: number | null;
  net_content_unit: NetContentUnit | null;
};

/** A line as readCart reads it: with its product's VAT category, which offers split their discounts by. */
type CartRow = ItemRow & { vat_category: VatCategory };

/** The select of cart lines with their products; add the where clause. */
export const itemSelect = sql`select i.id, i.quantity, i.unit_price_ore, i.pant_ore, i.ordinary_unit_ore, i.member_unit_ore, i.weight_grams,
    i.line_key, p.id as product_id, p.name, p.image_url,
    ${ordinaryPriceOf("p", sql`(select s.store_id from shopping_sessions s where s.id = i.session_id)`)} as price_ore,
    p.net_content_milli, p.net_content_unit, p.vat_category
  from cart_items i join products p on p.id = i.product_id`;

/**
 * A line's jämförpris: a weight label's is the store's price per kilogram
 * (weighed goods are priced so); a price label's is unknown (its amount is
 * not on it); any other line's is the line's own price (a campaign's when it
 * has one) over the product's net content.
 */
function lineComparisonPrice(row: ItemRow): CartItem["product"]["comparison_price"] {
  if (row.weight_grams !== null) return { price: fromOre(row.price_ore), unit: "kg" };
  if (row.line_key.startsWith("label:")) return null;
  const content = row.net_content_milli === null ? null : row.net_content_milli / 1000;
  return comparisonPriceAnswer(row.unit_price_ore, content, row.net_content_unit);
}

/** A line as the API answers it, in kronor. */
export function toItem(row: ItemRow): CartItem {
  return {
    id: row.id,
    quantity: row.quantity,
    unit_price: fromOre(row.unit_price_ore),
    total_price: fromOre(row.unit_price_ore * row.quantity),
    ordinary_unit_price: ordinaryUnitPrice(row.ordinary_unit_ore),
    member_unit_price: kronorOrNull(row.member_unit_ore),
    weight_grams: row.weight_grams,
    pant: linePant(row.pant_ore, row.quantity),
    product: {
      id: row.product_id,
      name: row.name,
      image_url: row.image_url,
      comparison_price: lineComparisonPrice(row),
    },
  };
}

/** One line by its id, or null once it is gone. */
export async function readItem(db: Db | Tx, itemId: string): Promise<CartItem | null> {
  const [row] = await queryRows<ItemRow>(db, sql`${itemSelect} where i.id = ${itemId}`);
  return row ? toItem(row) : null;
}

/**
 * The visit's cart: its lines in the order they were added, the multi-buy
 * offers it gets on the store's day of `at` (app.saleClock), and the total
 * after them, which is what the exit charges.
 */
export async function readCart(db: Db | Tx, sessionId: string, at: Date, book?: OfferBook): Promise<Cart> {
  const rows = await queryRows<CartRow>(
    db,
    sql`${itemSelect} where i.session_id = ${sessionId} order by i.created_at, i.id`,
  );
  const items = rows.map(toItem);
  const lines = rows.map(offerLine);
  if (book) {
    const found = await offersFromBook(db, sessionId, at, book);
    if (found) return { session_id: sessionId, items, ...priceFromBook(lines, found.facts, found.day) };
  }
  return { session_id: sessionId, items, ...cartAnswer(lines, await offersOfVisit(db, sessionId, at)) };
}

/** A cart line as offers see it. */
export const offerLine = (row: CartRow) => ({
  id: row.id,
  product_id: row.product_id,
  quantity: row.quantity,
  unit_price_ore: row.unit_price_ore,
  pant_ore: row.pant_ore,
  member_unit_ore: row.member_unit_ore,
  labelled: row.line_key.startsWith("label:"),
  vat_category: row.vat_category,
});

/**
 * The visit's cart_version now (null: no such visit). Read before the cart,
 * every change up to it is in the cart read after it.
 */
export async function cartVersion(db: Db, sessionId: string): Promise<string | null> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`select cart_version::text as v from shopping_sessions where id = ${sessionId}`,
  );
  return row?.v ?? null;
}

/** The cart of one of the shopper's own visits, whatever state the visit is in. */
export async function getCart(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
  at: Date;
  /** This instance's offers (the GET and the live cart); without it they are read with the cart. */
  book?: OfferBook;
}): Promise<Cart> {
  const session = await loadSession(opts.db, opts.sessionId);
  if (!session) throw notFound("Sessionen finns inte.", "unknown_session");
  if (session.customer_id !== opts.customerId) throw forbidden("Det här är inte din session.");
  return readCart(opts.db, opts.sessionId, opts.at, opts.book);
}
