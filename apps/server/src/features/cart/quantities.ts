import type { Cart } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";
import { LINE_VALUE_ORE } from "../pant/pant.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";
import { addedEvent, announceLine, type CartEvent } from "./cart.events.ts";
import { type ItemRow, itemSelect, readCart, toItem } from "./cart.service.ts";
import { type CartLimits, checkLimits } from "./cart-limits.ts";
import { openSession } from "./cart-visit.ts";

/**
 * The line with its visit, checked for its shopper and for a visit whose cart
 * may change. Asked again with `lock` inside the change's transaction, where
 * the answer holds until the change is written (see sessionSelect).
 */
async function ownedItem(
  db: Db | Tx,
  customerId: string,
  itemId: string,
  lock = false,
): Promise<{ sessionId: string; storeId: string }> {
  const [row] = await queryRows<{ session_id: string }>(
    db,
    sql`select session_id from cart_items where id = ${itemId}`,
  );
  if (!row) throw notFound("Varan finns inte i kundvagnen.", "unknown_item");
  const session = await openSession(db, { kind: "shopper", customerId }, row.session_id, lock);
  return { sessionId: row.session_id, storeId: session.store_id };
}

/** A line changed: the cart as it now is, and what the shopper's screens hear of it. */
type LineChange = { cart: Cart; events: CartEvent[] };

/**
 * Sets a line's quantity; 0 removes the line. Answers the cart as it now is.
 * What the screens hear is decided under the line's lock, from the quantity
 * it had there: one more is an added product, one fewer a removed one,
 * anything else a changed cart.
 */
export async function setQuantity(opts: {
  db: Db;
  customerId: string;
  itemId: string;
  quantity: number;
  limitsOf: (storeId: string) => Promise<CartLimits>;
  /** The moment of the change (app.saleClock): its store's day picks the offers of the cart answered. */
  at: Date;
  announce?: AnnounceSession;
}): Promise<LineChange> {
  const visit = await ownedItem(opts.db, opts.customerId, opts.itemId);
  if (opts.quantity === 0) {
    const { cart, removed } = await removeLine(opts, visit);
    return { cart, events: [removed ? { type: "product_removed", ...removed } : { type: "cart_changed" }] };
  }
  const limits = await opts.limitsOf(visit.storeId);
  const { changed, event } = await opts.db.transaction(async (tx): Promise<{ changed: boolean; event: CartEvent }> => {
    await ownedItem(tx, opts.customerId, opts.itemId, true);
    const [line] = await queryRows<ItemRow>(tx, sql`${itemSelect} where i.id = ${opts.itemId} for update of i`);
    if (!line || line.quantity === opts.quantity) return { changed: false, event: { type: "cart_changed" } };
    const [cart] = await queryRows<{ ore: number | string }>(
      tx,
      sql`select coalesce(sum(${LINE_VALUE_ORE}), 0)::bigint as ore from cart_items where session_id = ${visit.sessionId}`,
    );
    checkLimits(limits, line, {
      quantity: opts.quantity,
      totalOre: Number(cart!.ore) + (opts.quantity - line.quantity) * (line.unit_price_ore + line.pant_ore),
    });
    await tx.execute(
      sql`update cart_items set quantity = ${opts.quantity}, updated_at = now() where id = ${opts.itemId}`,
    );
    await recordSessionEvent(tx, {
      sessionId: visit.sessionId,
      storeId: visit.storeId,
      kind: "quantity_changed",
      source: "phone",
      detail: { product: line.name, product_id: line.product_id, from: line.quantity, to: opts.quantity },
    });
    return { changed: true, event: quantityEvent(line, opts.quantity) };
  });
  if (changed) await announceLine(opts.announce, visit, "quantity_changed");
  // The same quantity again changed nothing: the answer is the cart, and no screen is told.
  return { cart: await readCart(opts.db, visit.sessionId, opts.at), events: changed ? [event] : [] };
}

/** One more on the line is an added product, one fewer a removed one, anything else a changed cart. */
function quantityEvent(line: ItemRow, quantity: number): CartEvent {
  if (quantity === line.quantity + 1) return addedEvent(toItem({ ...line, quantity }));
  if (quantity === line.quantity - 1) return { type: "product_removed", product_id: line.product_id };
  return { type: "cart_changed" };
}

/** Removes a line; answers the cart as it now is. */
export async function removeItem(opts: {
  db: Db;
  customerId: string;
  itemId: string;
  at: Date;
  announce?: AnnounceSession;
}): Promise<LineChange> {
  const { cart, removed } = await removeLine(opts, await ownedItem(opts.db, opts.customerId, opts.itemId));
  return { cart, events: removed ? [{ type: "product_removed", ...removed }] : [] };
}

async function removeLine(
  opts: { db: Db; customerId: string; itemId: string; at: Date; announce?: AnnounceSession },
  visit: { sessionId: string; storeId: string },
): Promise<{ cart: Cart; removed: { product_id: string } | null }> {
  const gone = await opts.db.transaction(async (tx) => {
    await ownedItem(tx, opts.customerId, opts.itemId, true);
    const [line] = await queryRows<{ product_id: string; quantity: number; name: string }>(
      tx,
      sql`delete from cart_items i using products p where i.id = ${opts.itemId} and p.id = i.product_id
          returning i.product_id, i.quantity, p.name`,
    );
    if (line)
      await recordSessionEvent(tx, {
        sessionId: visit.sessionId,
        storeId: visit.storeId,
        kind: "item_removed",
        source: "phone",
        detail: { product: line.name, product_id: line.product_id, quantity: line.quantity },
      });
    return line;
  });
  if (gone) await announceLine(opts.announce, visit, "item_removed");
  return {
    cart: await readCart(opts.db, visit.sessionId, opts.at),
    removed: gone ? { product_id: gone.product_id } : null,
  };
}
