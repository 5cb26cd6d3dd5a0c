import type { Cart, CartItem } from "@glide/contracts";
import { parseBarcode, parseVariableMeasure } from "@glide/contracts";
import { type Db, queryPrepared, queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError, conflict, forbidden, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { ageOn } from "../../platform/personal-number.ts";
import {
  ACTIVITY_PRECISION,
  type AnnounceSession,
  announceNothing,
  type EventSource,
  recordSessionEvent,
  visitAbandoned,
} from "../sessions/session-events.ts";
import { mustTransition, type VisitState } from "../visits/visit-state.ts";
import { type CartLimits, checkLimits, visitStore } from "./cart-limits.ts";

/**
 * Who changes a cart: the shopper's phone (scans and line changes), or the
 * store's recognition worker (workerChange).
 */
type CartActor = { kind: "shopper"; customerId: string } | { kind: "device"; storeId: string };

type SessionRow = {
  id: string;
  customer_id: string;
  store_id: string;
  state: VisitState;
  abandoned_at: Date | null;
  store_active: boolean;
  timezone: string;
  birth_date: string;
  age_verification: boolean;
  ai_recognition: boolean;
};

/**
 * The visit with what every cart rule needs. `lock`: FOR KEY SHARE, which
 * waits for a checkout that holds the visit (FOR UPDATE) and then reads the
 * state it left: a change is either in the cart the checkout charges, or
 * refused because the cart is frozen. Changes do not wait for each other.
 */
const sessionSelect = (sessionId: string, lock = false) =>
  sql`select s.id, s.customer_id, s.store_id, s.state, s.abandoned_at,
        st.is_active as store_active, st.timezone, c.birth_date::text as birth_date,
        exists (select 1 from store_modules m where m.store_id = s.store_id
                  and m.module_id = 'age_verification' and m.enabled) as age_verification,
        exists (select 1 from store_modules m where m.store_id = s.store_id
                  and m.module_id = 'ai_product_recognition' and m.enabled) as ai_recognition
      from shopping_sessions s
      join stores st on st.id = s.store_id
      join customers c on c.id = s.customer_id
      where s.id = ${sessionId} ${lock ? sql`for key share of s` : sql``}`;

async function loadSession(db: Db | Tx, sessionId: string, lock = false): Promise<SessionRow | undefined> {
  const [row] = await queryRows<SessionRow>(db, sessionSelect(sessionId, lock));
  return row;
}

async function openSession(db: Db | Tx, actor: CartActor, sessionId: string, lock = false): Promise<SessionRow> {
  return checkSession(actor, await loadSession(db, sessionId, lock));
}

/** The checks in the order a shopper would hear them: whose visit, then where the visit stands. */
function checkSession(actor: CartActor, session: SessionRow | undefined): SessionRow {
  if (!session) throw notFound("Sessionen finns inte.", "unknown_session");
  if (actor.kind === "shopper" && session.customer_id !== actor.customerId)
    throw forbidden("Det här är inte din session.");
  if (actor.kind === "device" && session.store_id !== actor.storeId)
    throw forbidden("The session belongs to another store", "wrong_store");
  // Closed by the sweep with an empty cart: the shopper hears why.
  if (session.state === "ended_empty" && session.abandoned_at) throw visitAbandoned();
  mustTransition(session.state, "cart_change", { hasGoods: false, gone: false });
  if (!session.store_active) throw conflict("Butiken är stängd just nu.", "store_inactive");
  return session;
}

/** Today in the store's own time zone, for age checks at the birthday boundary. */
function todayIn(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" })
    .format(now)
    .slice(0, 10);
}

/**
 * Age-limited goods are sold only in stores with the age_verification module,
 * and only to shoppers of that age on the store's calendar day. Checked again
 * at payment.
 */
export function checkAgeLimit(
  session: Pick<SessionRow, "age_verification" | "birth_date" | "timezone">,
  product: { name: string; age_limit: number | null },
  now = new Date(),
): void {
  const limit = product.age_limit;
  if (!limit) return;
  if (!session.age_verification)
    throw forbidden(
      `${product.name} har åldersgräns (${limit} år) och säljs inte i den här butiken.`,
      "age_limited_not_sold",
    );
  if (ageOn(session.birth_date, todayIn(session.timezone, now)) < limit)
    throw forbidden(`Du måste vara minst ${limit} år för att köpa ${product.name}.`, "under_age");
}

type ItemRow = {
  id: string;
  quantity: number;
  unit_price_ore: number;
  weight_grams: number | null;
  product_id: string;
  name: string;
  image_url: string | null;
};

const itemSelect = sql`select i.id, i.quantity, i.unit_price_ore, i.weight_grams, p.id as product_id, p.name, p.image_url
  from cart_items i join products p on p.id = i.product_id`;

function toItem(row: ItemRow): CartItem {
  return {
    id: row.id,
    quantity: row.quantity,
    unit_price: fromOre(row.unit_price_ore),
    total_price: fromOre(row.unit_price_ore * row.quantity),
    weight_grams: row.weight_grams,
    product: { id: row.product_id, name: row.name, image_url: row.image_url },
  };
}

async function readItem(db: Db | Tx, itemId: string): Promise<CartItem | null> {
  const [row] = await queryRows<ItemRow>(db, sql`${itemSelect} where i.id = ${itemId}`);
  return row ? toItem(row) : null;
}

export async function readCart(db: Db | Tx, sessionId: string): Promise<Cart> {
  const rows = await queryRows<ItemRow>(
    db,
    sql`${itemSelect} where i.session_id = ${sessionId} order by i.created_at, i.id`,
  );
  const items = rows.map(toItem);
  const totalOre = rows.reduce((sum, r) => sum + r.unit_price_ore * r.quantity, 0);
  return { session_id: sessionId, items, total: fromOre(totalOre) };
}

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
    limits: CartLimits;
    scanId?: string;
    /** For the visit's timeline: whose scan or sighting, in which store, of what. */
    event: { storeId: string; source: EventSource; productName: string };
  },
): Promise<CartItem> {
  const { sessionId, productId, unitOre, scanId } = opts;
  const add = async (tx: Tx) => {
    await openSession(tx, opts.actor, sessionId, true);
    const [cart] = await queryRows<{ ore: number | string; line_quantity: number }>(
      tx,
      sql`select coalesce(sum(quantity::bigint * unit_price_ore), 0)::bigint as ore,
            coalesce(max(quantity) filter (where line_key = ${productId}), 0)::int as line_quantity
          from cart_items where session_id = ${sessionId}`,
    );
    checkLimits(
      opts.limits,
      { name: opts.event.productName },
      { quantity: cart!.line_quantity + 1, totalOre: Number(cart!.ore) + unitOre },
    );
    const upsert = sql`insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore, weight_grams)
      values (${sessionId}, ${productId}, ${productId}, 1, ${unitOre}, null)
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

/** The line a scan id went to, or undefined if the id is new. */
async function scannedItem(db: Db | Tx, scanId: string, sessionId: string): Promise<CartItem | undefined> {
  const [scan] = await queryRows<{ session_id: string; item_id: string }>(
    db,
    sql`select session_id, item_id from cart_scans where scan_id = ${scanId}`,
  );
  if (!scan) return undefined;
  if (scan.session_id !== sessionId) throw conflict("Skanningen hör till ett annat besök.", "scan_id_reused");
  const item = await readItem(db, scan.item_id);
  // The line was removed since; the scan counted once and is not counted again.
  if (!item) throw conflict("Skanningen är redan registrerad.", "scan_already_counted");
  return item;
}

/**
 * How a scanned code is looked up, as the products lookup does it: the
 * code's own GTIN first; failing that, for a GS1 price or weight label
 * (EAN-13, prefix 20–25), the item the label was printed for, priced by the
 * label. Null for a code that is not a valid barcode. Each printed label
 * is a line of its own (two packs of mince weigh differently), so its line
 * key is the whole code.
 */
function planCode(barcode: string) {
  const parsed = parseBarcode(barcode);
  if (!parsed) return null;
  const variable = parseVariableMeasure(parsed.raw);
  const item = variable ? parseBarcode(variable.itemCode) : null;
  const measure = variable?.measure;
  return {
    raw: parsed.raw,
    gtin14: parsed.gtin14,
    labelGtin14: item?.gtin14 ?? null,
    priceOre: measure?.kind === "price" ? measure.priceOre : null,
    grams: measure?.kind === "weight" ? measure.grams : null,
  };
}

type FoundProduct = {
  id: string;
  name: string;
  image_url: string | null;
  price_ore: number;
  is_active: boolean;
  age_limit: number | null;
  /** What one scan of this code adds: the product's price, or the label's. */
  unit_ore: number;
};

type ScanRow = {
  session: SessionRow | null;
  product: FoundProduct | null;
  /** The scan_id's earlier scan: its visit, and the line it went to (null fields once the line is gone). */
  previous: ({ session_id: string } & { [K in keyof ItemRow]: ItemRow[K] | null }) | null;
  /** The line as it is after this scan; null when the scan added nothing. */
  item: ItemRow | null;
  /** Before this scan: the units on the code's line, and the cart's total in öre. */
  line_quantity: number;
  cart_ore: number;
};

/**
 * One round trip: the visit (locked against a checkout, see sessionSelect),
 * the product, the scan_id's earlier scan, and, when nothing stands in the
 * way, one more on the product's line and the scan_id recorded. Whether
 * something stood in the way is decided here in SQL only to keep the write
 * from happening; which error the shopper hears is decided by the same
 * checks in TypeScript as for every other cart call. Age-limited goods are
 * never added here unless `ageChecked`: the age rule lives in checkAgeLimit
 * alone.
 */
async function scanStatement(
  db: Db,
  opts: { customerId: string; sessionId: string; scanId: string | null; ageChecked: boolean; limits: CartLimits },
  code: NonNullable<ReturnType<typeof planCode>> | null,
): Promise<ScanRow> {
  const { customerId, sessionId, scanId, ageChecked, limits } = opts;
  const grams = code?.grams ?? null;
  const priceOre = code?.priceOre ?? null;
  // Prepared: planning this statement cost PostgreSQL more than running it (bench/results.md, Cart).
  const [row] = await queryPrepared<ScanRow>(
    db,
    "cart_scan",
    sql`with visit as (${sessionSelect(sessionId, true)}),
      found as (
        select p.id, p.name, p.image_url, p.price_ore, p.is_active, p.age_limit, b.gtin14 = ${code?.gtin14 ?? null} as exact,
          case when b.gtin14 = ${code?.gtin14 ?? null} then p.price_ore
               when ${priceOre}::int is not null then ${priceOre}::int
               else round(p.price_ore * ${grams}::int / 1000.0)::int end as unit_ore,
          case when b.gtin14 = ${code?.gtin14 ?? null} then p.id::text else ${code ? `label:${code.raw}` : null}::text end as line_key
        from product_barcodes b join products p on p.id = b.product_id
        where b.gtin14 in (${code?.gtin14 ?? null}, ${code?.labelGtin14 ?? null})
        order by exact desc
        limit 1
      ),
      previous as (
        select c.session_id, i.id, i.quantity, i.unit_price_ore, i.weight_grams, p.id as product_id, p.name, p.image_url
        from cart_scans c
        left join cart_items i on i.id = c.item_id
        left join products p on p.id = i.product_id
        where c.scan_id = ${scanId}::uuid
      ),
      cart as (
        select coalesce(sum(i.quantity::bigint * i.unit_price_ore), 0)::bigint as ore,
          coalesce(max(i.quantity) filter (where i.line_key = (select line_key from found)), 0) as line_quantity
        from cart_items i where i.session_id = ${sessionId}::uuid
      ),
      item as (
        insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore, weight_grams)
        select v.id, f.id, f.line_key, 1, f.unit_ore, case when f.exact then null else ${grams}::int end
        from visit v, found f, cart k
        where v.customer_id = ${customerId} and v.state = 'in_store'
          and v.store_active and f.is_active and (${ageChecked}::boolean or coalesce(f.age_limit, 0) = 0)
          and k.line_quantity < ${limits.maxLineQuantity}::int and k.ore + f.unit_ore <= ${limits.maxTotalOre}::bigint
          and not exists (select 1 from previous)
        on conflict (session_id, line_key) do update set quantity = cart_items.quantity + 1, updated_at = now()
        returning id, quantity, unit_price_ore, weight_grams, product_id
      ),
      scan as (
        insert into cart_scans (scan_id, session_id, item_id)
        select ${scanId}::uuid, ${sessionId}::uuid, id from item where ${scanId}::uuid is not null
      ),
      -- The visit's timeline and its last activity, in this same statement: only a scan that added something
      -- is an event (a repeated scan_id adds nothing), and a scan costs no extra round trip.
      event as (
        insert into session_events (session_id, store_id, kind, source, detail)
        select v.id, v.store_id, 'item_added', 'phone',
          jsonb_build_object('product', f.name, 'product_id', f.id, 'quantity', 1, 'line_quantity', item.quantity,
            'barcode', ${code?.raw ?? null}::text, 'label', not f.exact)
        from item, visit v, found f
      ),
      touched as (
        update shopping_sessions set last_activity_at = now()
        where id = ${sessionId}::uuid and exists (select 1 from item)
          and last_activity_at < now() - ${ACTIVITY_PRECISION}::interval
      )
      select (select row_to_json(visit) from visit) as session,
        (select row_to_json(found) from found) as product,
        (select row_to_json(previous) from previous) as previous,
        (select row_to_json(x) from (select item.*, found.name, found.image_url from item, found) x) as item,
        (select line_quantity from cart)::int as line_quantity, (select ore from cart) as cart_ore`,
  );
  return row!;
}

/**
 * Adds one of the scanned product to the visit's cart: the checks in the
 * order a shopper would hear them, in one round trip to the database (two
 * for age-limited goods, whose age check runs between them). With a scan id
 * the scan counts once however often it is sent; the same id again answers
 * the line it went to.
 */
export async function scanIntoCart(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
  barcode: string;
  scanId?: string | undefined;
  /** The cart limits of a store (its settings); asked before any statement. */
  limitsOf: (storeId: string) => Promise<CartLimits>;
  announce?: AnnounceSession;
}): Promise<{ product: CartItem["product"]; item: CartItem }> {
  const code = planCode(opts.barcode);
  const storeId = await visitStore(opts.db, opts.sessionId);
  // An unknown visit adds nothing whatever its limits: the statement finds no visit and the shopper hears 404.
  const limits = storeId ? await opts.limitsOf(storeId) : { maxLineQuantity: 0, maxTotalOre: 0 };
  const scanId = opts.scanId ?? null;
  const actor: CartActor = { kind: "shopper", customerId: opts.customerId };
  for (const ageChecked of [false, true]) {
    let row: ScanRow;
    try {
      row = await scanStatement(
        opts.db,
        { customerId: opts.customerId, sessionId: opts.sessionId, scanId, ageChecked, limits },
        code,
      );
    } catch (err) {
      // The same scan id arrived twice at once: the other one counted it.
      if (!scanId || !isUniqueViolation(err)) throw err;
      const counted = await scannedItem(opts.db, scanId, opts.sessionId);
      if (counted === undefined) throw err;
      return { product: counted.product, item: counted };
    }
    const session = checkSession(actor, row.session ?? undefined);
    if (!code) throw new AppError(422, "invalid_barcode", "Streckkoden gick inte att läsa. Försök igen.");
    const product = row.product;
    if (!product) throw notFound("Produkt inte hittad", "unknown_barcode");
    if (!product.is_active) throw conflict(`${product.name} säljs inte just nu.`, "product_inactive");
    checkAgeLimit(session, product);
    if (row.item) {
      const item = toItem(row.item);
      await (opts.announce ?? announceNothing)({
        store_id: session.store_id,
        session_id: session.id,
        kind: "item_added",
      });
      return { product: item.product, item };
    }
    if (row.previous) {
      const item = previousItem(row.previous, opts.sessionId);
      return { product: item.product, item };
    }
    checkLimits(limits, product, {
      quantity: row.line_quantity + 1,
      totalOre: Number(row.cart_ore) + product.unit_ore,
    });
    // Only the age limit held the scan back, and the shopper is of age: add it now.
    if (!product.age_limit) break;
  }
  throw new Error("the scan passed every check but was not added");
}

/** The line an earlier scan with the same id went to. */
function previousItem(previous: NonNullable<ScanRow["previous"]>, sessionId: string): CartItem {
  if (previous.session_id !== sessionId) throw conflict("Skanningen hör till ett annat besök.", "scan_id_reused");
  // The line was removed since; the scan counted once and is not counted again.
  if (previous.id === null) throw conflict("Skanningen är redan registrerad.", "scan_already_counted");
  return toItem(previous as ItemRow);
}

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

type LineChange = { cart: Cart; removed: { product_id: string } | null };

/** Sets a line's quantity; 0 removes the line. Answers the cart as it now is. */
export async function setQuantity(opts: {
  db: Db;
  customerId: string;
  itemId: string;
  quantity: number;
  limitsOf: (storeId: string) => Promise<CartLimits>;
  announce?: AnnounceSession;
}): Promise<LineChange> {
  const visit = await ownedItem(opts.db, opts.customerId, opts.itemId);
  if (opts.quantity === 0) return removeLine({ ...opts, customerId: opts.customerId }, visit);
  const limits = await opts.limitsOf(visit.storeId);
  const changed = await opts.db.transaction(async (tx) => {
    await ownedItem(tx, opts.customerId, opts.itemId, true);
    const [line] = await queryRows<{ quantity: number; product_id: string; name: string; unit_price_ore: number }>(
      tx,
      sql`select i.quantity, i.product_id, p.name, i.unit_price_ore from cart_items i join products p on p.id = i.product_id
          where i.id = ${opts.itemId} for update of i`,
    );
    if (!line || line.quantity === opts.quantity) return false;
    const [cart] = await queryRows<{ ore: number | string }>(
      tx,
      sql`select coalesce(sum(quantity::bigint * unit_price_ore), 0)::bigint as ore from cart_items where session_id = ${visit.sessionId}`,
    );
    checkLimits(limits, line, {
      quantity: opts.quantity,
      totalOre: Number(cart!.ore) + (opts.quantity - line.quantity) * line.unit_price_ore,
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
    return true;
  });
  if (changed) await announceLine(opts.announce, visit, "quantity_changed");
  return { cart: await readCart(opts.db, visit.sessionId), removed: null };
}

const announceLine = (
  announce: AnnounceSession | undefined,
  visit: { sessionId: string; storeId: string },
  kind: string,
) => (announce ?? announceNothing)({ store_id: visit.storeId, session_id: visit.sessionId, kind });

export async function removeItem(opts: {
  db: Db;
  customerId: string;
  itemId: string;
  announce?: AnnounceSession;
}): Promise<LineChange> {
  return removeLine(opts, await ownedItem(opts.db, opts.customerId, opts.itemId));
}

async function removeLine(
  opts: { db: Db; customerId: string; itemId: string; announce?: AnnounceSession },
  visit: { sessionId: string; storeId: string },
): Promise<LineChange> {
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
  return { cart: await readCart(opts.db, visit.sessionId), removed: gone ? { product_id: gone.product_id } : null };
}

export async function getCart(opts: { db: Db; customerId: string; sessionId: string }): Promise<Cart> {
  const session = await loadSession(opts.db, opts.sessionId);
  if (!session) throw notFound("Sessionen finns inte.", "unknown_session");
  if (session.customer_id !== opts.customerId) throw forbidden("Det här är inte din session.");
  return readCart(opts.db, opts.sessionId);
}

/**
 * The store's recognition worker saw a shopper take (add) or put back
 * (remove) one product. Only in stores with ai_product_recognition; age
 * limits apply as they do to a scan.
 */
export async function workerChange(opts: {
  db: Db;
  storeId: string;
  sessionId: string;
  productId: string;
  action: "add" | "remove";
  eventId?: string | undefined;
  limitsOf: (storeId: string) => Promise<CartLimits>;
  announce?: AnnounceSession;
}): Promise<{
  cart: Cart /** The line one was added to; null for a removal. */;
  item: CartItem | null;
  product: CartItem["product"];
}> {
  const actor: CartActor = { kind: "device", storeId: opts.storeId };
  const session = await openSession(opts.db, actor, opts.sessionId);
  if (!session.ai_recognition)
    throw forbidden("The store does not have the ai_product_recognition module", "module_disabled");
  const [product] = await queryRows<{
    id: string;
    name: string;
    image_url: string | null;
    price_ore: number;
    is_active: boolean;
    age_limit: number | null;
  }>(
    opts.db,
    sql`select id, name, image_url, price_ore, is_active, age_limit from products where id = ${opts.productId}`,
  );
  if (!product) throw notFound("Unknown product", "unknown_product");
  const summary = { id: product.id, name: product.name, image_url: product.image_url };
  if (opts.action === "add") {
    if (!product.is_active) throw conflict(`${product.name} säljs inte just nu.`, "product_inactive");
    checkAgeLimit(session, product);
    const item = await addOne(opts.db, {
      actor,
      sessionId: session.id,
      productId: product.id,
      unitOre: product.price_ore,
      limits: await opts.limitsOf(opts.storeId),
      ...(opts.eventId ? { scanId: opts.eventId } : {}),
      event: { storeId: session.store_id, source: "camera_worker", productName: product.name },
    });
    await announceLine(opts.announce, { sessionId: session.id, storeId: session.store_id }, "item_added");
    return { cart: await readCart(opts.db, session.id), item, product: summary };
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
  return { cart: await readCart(opts.db, session.id), item: null, product: summary };
}
