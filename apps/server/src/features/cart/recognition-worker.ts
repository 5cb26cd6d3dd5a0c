import type { Cart, CartItem } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { conflict, forbidden, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { storeOfDevice } from "../devices/devices.service.ts";
import { LINE_VALUE_ORE, pantOreOf } from "../pant/pant.ts";
import { campaignPrice, shelfPriceOf } from "../pricing/shelf-price.ts";
import { type AnnounceSession, type EventSource, recordSessionEvent } from "../sessions/session-events.ts";
import { checkAgeLimit } from "./age-limit.ts";
import { addedEvent, announceLine, type CartEvent } from "./cart.events.ts";
import { readCart, readItem } from "./cart.service.ts";
import { type CartLimits, checkLimits } from "./cart-limits.ts";
import { type CartActor, openSession } from "./cart-visit.ts";
import { scannedItem } from "./scanning.ts";

/**
 * Adds one of a product to its line for the recognition worker, in one
 * statement under the visit's lock (see sessionSelect): 100 parallel
 * sightings of one product end at quantity 100. With an event id the
 * sighting counts once however often it is sent; the same id again answers
 * the line it went to.
 */
async function addOne(
  db: Db,
  opts: {
    actor: CartActor;
    sessionId: string;
    productId: string;
    unitOre: number;
    /** The ordinary price when a campaign gave unitOre ("Kampanj"); null otherwise. */
    ordinaryOre: number | null;
    limits: CartLimits;
    scanId?: string;
    /** For the visit's timeline: whose scan or sighting, in which store, of what. */
    event: { storeId: string; source: EventSource; productName: string };
  },
): Promise<CartItem> {
  const { sessionId, productId, unitOre, scanId } = opts;
  const add = async (tx: Tx) => {
    await openSession(tx, opts.actor, sessionId, true);
    const [cart] = await queryRows<{ ore: number | string; line_quantity: number; pant_ore: number }>(
      tx,
      sql`select coalesce(sum(${LINE_VALUE_ORE}), 0)::bigint as ore,
            coalesce(max(quantity) filter (where line_key = ${productId}), 0)::int as line_quantity,
            (select ${pantOreOf("p", sql`${opts.event.storeId}::uuid`)} from products p where p.id = ${productId}) as pant_ore
          from cart_items where session_id = ${sessionId}`,
    );
    const pantOre = cart!.pant_ore ?? 0;
    checkLimits(
      opts.limits,
      { name: opts.event.productName },
      { quantity: cart!.line_quantity + 1, totalOre: Number(cart!.ore) + unitOre + pantOre },
    );
    const upsert = sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore, weight_grams, pant_ore,
        ordinary_unit_ore)
      values (${sessionId}, ${productId}, ${productId}, 1, ${unitOre}, null, ${pantOre}, ${opts.ordinaryOre})
      on conflict (session_id, line_key) do update set quantity = cart_items.quantity + 1, updated_at = now()
      returning id`;
    const [row] = await queryRows<{ id: string }>(
      tx,
      scanId
        ? sql`with item as (${upsert})
            insert into cart_scans (scan_id, session_id, item_id) select ${scanId}, ${sessionId}, id from item
            returning item_id as id`
        : upsert,
    );
    await recordSessionEvent(tx, {
      sessionId,
      storeId: opts.event.storeId,
      kind: "item_added",
      source: opts.event.source,
      detail: { product: opts.event.productName, product_id: productId, quantity: 1 },
    });
    return row!.id;
  };
  if (!scanId) return (await readItem(db, await db.transaction(add)))!;
  const previous = await scannedItem(db, scanId, sessionId);
  if (previous !== undefined) return previous;
  try {
    return (await readItem(db, await db.transaction(add)))!;
  } catch (err) {
    // The same event id arrived twice at once: the other one counted it.
    if (!isUniqueViolation(err)) throw err;
    const counted = await scannedItem(db, scanId, sessionId);
    if (counted === undefined) throw err;
    return counted;
  }
}

/**
 * The store's recognition worker saw a shopper take (add) or put back
 * (remove) one product. Only in stores with ai_product_recognition; age
 * limits apply as they do to a scan. Answers the cart, and what the
 * shopper's screens hear: the product added, or removed.
 */
export async function workerChange(opts: {
  db: Db;
  storeId: string;
  sessionId: string;
  productId: string;
  action: "add" | "remove";
  eventId?: string | undefined;
  limitsOf: (storeId: string) => Promise<CartLimits>;
  /** The moment of the sighting (app.saleClock): its store's day picks the campaigns. */
  at?: Date;
  announce?: AnnounceSession;
}): Promise<{ cart: Cart; events: CartEvent[] }> {
  const actor: CartActor = { kind: "device", storeId: opts.storeId };
  const session = await openSession(opts.db, actor, opts.sessionId);
  const shelf = shelfPriceOf(
    "p",
    sql`${session.store_id}::uuid`,
    opts.at ?? new Date(),
    sql`${session.member}::boolean`,
  );
  if (!session.ai_product_recognition)
    throw forbidden("The store does not have the ai_product_recognition module", "module_disabled");
  const [product] = await queryRows<{
    id: string;
    name: string;
    image_url: string | null;
    price_ore: number;
    campaign_ore: number | null;
    is_active: boolean;
    age_limit: number | null;
  }>(
    opts.db,
    sql`select p.id, p.name, p.image_url, ${shelf.ordinary} as price_ore, ${shelf.campaign} as campaign_ore, p.is_active,
          p.age_limit
        from products p where p.id = ${opts.productId}`,
  );
  if (!product) throw notFound("Unknown product", "unknown_product");
  if (opts.action === "add") {
    if (!product.is_active) throw conflict(`${product.name} säljs inte just nu.`, "product_inactive");
    checkAgeLimit(session, product);
    const item = await addOne(opts.db, {
      actor,
      sessionId: session.id,
      productId: product.id,
      ...campaignPrice(product),
      limits: await opts.limitsOf(opts.storeId),
      ...(opts.eventId ? { scanId: opts.eventId } : {}),
      event: { storeId: session.store_id, source: "camera_worker", productName: product.name },
    });
    await announceLine(opts.announce, { sessionId: session.id, storeId: session.store_id }, "item_added");
    return { cart: await readCart(opts.db, session.id, opts.at ?? new Date()), events: [addedEvent(item)] };
  }
  // One fewer on the product's ordinary line; the last one removes the line. The row lock
  // makes two removals at once take two, not one.
  const left = await opts.db.transaction(async (tx) => {
    await openSession(tx, actor, session.id, true);
    const [line] = await queryRows<{ id: string; quantity: number }>(
      tx,
      sql`select id, quantity from cart_items where session_id = ${session.id} and line_key = ${product.id} for update`,
    );
    if (!line) return null;
    if (line.quantity <= 1) await tx.execute(sql`delete from cart_items where id = ${line.id}`);
    else await tx.execute(sql`update cart_items set quantity = quantity - 1, updated_at = now() where id = ${line.id}`);
    await recordSessionEvent(tx, {
      sessionId: session.id,
      storeId: session.store_id,
      kind: line.quantity <= 1 ? "item_removed" : "quantity_changed",
      source: "camera_worker",
      detail: { product: product.name, product_id: product.id, from: line.quantity, to: line.quantity - 1 },
    });
    return { quantity: line.quantity - 1 };
  });
  if (!left) throw notFound(`${product.name} finns inte i kundvagnen.`, "not_in_cart");
  await announceLine(
    opts.announce,
    { sessionId: session.id, storeId: session.store_id },
    left.quantity > 0 ? "quantity_changed" : "item_removed",
  );
  return {
    cart: await readCart(opts.db, session.id, opts.at ?? new Date()),
    events: [{ type: "product_removed", product_id: product.id }],
  };
}

/** The store whose camera_worker key the Authorization header carries; the key's hash is all we keep. */
export function cameraWorkerStore(db: Db, header: string | undefined): Promise<string> {
  return storeOfDevice(db, header, "camera_worker", {
    missing: "The recognition worker must send its device key",
    unknown: "Unknown device key",
  });
}
