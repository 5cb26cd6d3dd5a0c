import type { CalendarDay, CartItem } from "@glide/contracts";
import { parseBarcode, parseVariableMeasure } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { preparedOnce } from "../../db/prepared.ts";
import { AppError, conflict, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { lineValueOre, pantOreOf } from "../pant/pant.ts";
import {
  type LineTuple,
  lineTuples,
  type OfferLine,
  tupleLine,
  type VisitFacts,
  type VisitVoucher,
  vouchersOf,
} from "../pricing/cart-offers.ts";
import { shelfPriceOf } from "../pricing/shelf-price.ts";
import { ACTIVITY_PRECISION, type AnnounceSession, announceNothing } from "../sessions/session-events.ts";
import { checkAgeLimit } from "./age-limit.ts";
import { addedEvent, type CartEvent } from "./cart.events.ts";
import { type ItemRow, readItem, toItem } from "./cart.service.ts";
import { type CartLimits, checkLimits, visitStore } from "./cart-limits.ts";
import { type CartActor, checkSession, type SessionRow, sessionSelect } from "./cart-visit.ts";
import { type KeptCart, type KeptCarts, linesOre } from "./kept-carts.ts";

/** The line a scan id (or a recognition worker's event id) went to, or undefined if the id is new. */
export async function scannedItem(db: Db | Tx, scanId: string, sessionId: string): Promise<CartItem | undefined> {
  const [scan] = await queryRows<CountedScan>(
    db,
    sql`select session_id, item_id from cart_scans where scan_id = ${scanId}`,
  );
  return scan ? countedItem(db, scan, sessionId) : undefined;
}

/** A scan id's earlier scan: the visit it was sent in and the line it went to (which may have been removed since). */
type CountedScan = { session_id: string; item_id: string | null };

/** The line an earlier scan with the same id went to, as it now is. */
async function countedItem(db: Db | Tx, scan: CountedScan, sessionId: string): Promise<CartItem> {
  if (scan.session_id !== sessionId) throw conflict("Skanningen hör till ett annat besök.", "scan_id_reused");
  const item = scan.item_id === null ? null : await readItem(db, scan.item_id);
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
  /** And its pant in the store's country (0 without). */
  pant_ore: number;
};

type ScanRow = {
  session: SessionRow | null;
  product: FoundProduct | null;
  /** The scan_id's earlier scan: its visit, and the line it went to. */
  previous: CountedScan | null;
  /** The line as it is after this scan; null when the scan added nothing. */
  item: ItemRow | null;
  /** Before this scan: the units on the code's line, and the cart's total in öre. */
  line_quantity: number;
  cart_ore: number;
  /** The store's calendar day of the scan, and the cart's lines and vouchers before it, for its offers. */
  day: CalendarDay | null;
  /** The lines before the scan; not read (null) when the instance's kept copy is of the version `seen`. */
  lines: LineTuple[] | null;
  vouchers: VisitVoucher[] | null;
  /** The visit's cart_version as this statement saw it, and after its own change (null when it changed nothing). */
  seen: string | null;
  after: string | null;
};

type ScanValues = {
  customer: string;
  session: string;
  scan: string | null;
  age_checked: boolean;
  max_line: number;
  max_total: number;
  /** The moment of the scan: its store's calendar day picks the campaigns. */
  at: string;
  /** The cart_version of the instance's kept copy of the lines, and their öre; null without one. */
  known: string | null;
  known_ore: number | null;
  /** A price label's price, or a weighed label's grams; null for a product's own code. */
  price_ore: number | null;
  grams: number | null;
  gtin: string | null;
  label_gtin: string | null;
  /** The line a label's scan goes to; a product's own code goes to the product's line. */
  line_label: string | null;
  raw: string | null;
};

/**
 * One round trip: the visit (locked against a checkout, see sessionSelect),
 * the product, the scan_id's earlier scan, and, when nothing stands in the
 * way, one more on the product's line and the scan_id recorded. Whether
 * something stood in the way is decided here in SQL only to keep the write
 * from happening; which error the shopper hears is decided by the same
 * checks in TypeScript as for every other cart call. Age-limited goods are
 * never added here unless `age_checked`: the age rule lives in checkAgeLimit
 * alone. Built once and prepared: planning it cost PostgreSQL more than
 * running it, and building it on every scan cost the server its SQL objects
 * (bench/results.md, Cart).
 */
export const scanStatement = preparedOnce<ScanValues, ScanRow>("cart_scan", (v) => {
  const storeOfVisit = sql`(select store_id from visit)`;
  const shelf = shelfPriceOf("p", storeOfVisit, v.at, sql`(select member from visit)`);
  return sql`with visit as (${sessionSelect(v.session as never, true)}),
        found as (
          select f.*,
            case when f.exact then least(f.price_ore, f.campaign_ore)
                 when ${v.price_ore}::int is not null then ${v.price_ore}::int
                 else round(f.price_ore * ${v.grams}::int / 1000.0)::int end as unit_ore,
            case when f.exact and f.campaign_ore < f.price_ore then f.price_ore end as ordinary_unit_ore,
            case when f.exact and f.member_campaign_ore < least(f.price_ore, f.campaign_ore)
                 then f.member_campaign_ore end as member_unit_ore
          from (
            select p.id, p.name, p.image_url, ${shelf.ordinary} as price_ore, p.net_content_milli, p.net_content_unit,
              p.is_active, p.age_limit, b.gtin14 = ${v.gtin} as exact,
              ${shelf.campaign} as campaign_ore, ${shelf.memberCampaign} as member_campaign_ore,
              case when b.gtin14 = ${v.gtin} then p.id::text else ${v.line_label}::text end as line_key,
              ${pantOreOf("p", storeOfVisit)} as pant_ore
            from product_barcodes b join products p on p.id = b.product_id
            where b.gtin14 in (${v.gtin}, ${v.label_gtin})
            order by exact desc
            limit 1
          ) f
        ),
        -- Only whether the scan_id was counted: a repeat reads its line apart (countedItem), as repeats are rare.
        previous as (select c.session_id, c.item_id from cart_scans c where c.scan_id = ${v.scan}::uuid),
        -- The cart's version in this statement's snapshot, the one its lines are read in (the locked visit above may
        -- be a newer row than the snapshot's).
        seen as (select cart_version from shopping_sessions where id = ${v.session}::uuid),
        -- The cart before this scan, in one pass over its lines (their sum and the lines for pricing), unless the
        -- instance keeps the lines of this version: then the scan reads only the code's own line.
        whole as (
          select coalesce(sum(${lineValueOre("i")}), 0)::bigint as ore, ${lineTuples} as lines
          from cart_items i
          where i.session_id = ${v.session}::uuid and (select cart_version from seen) is distinct from ${v.known}::bigint
        ),
        cart as (
          select case when (select cart_version from seen) = ${v.known}::bigint then ${v.known_ore}::bigint
                 else (select ore from whole) end as ore,
            coalesce((select i.quantity from cart_items i
              where i.session_id = ${v.session}::uuid and i.line_key = (select line_key from found)), 0) as line_quantity,
            (select lines from whole) as lines
        ),
        item as (
          insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore, weight_grams, pant_ore,
            ordinary_unit_ore, member_unit_ore)
          select v.id, f.id, f.line_key, 1, f.unit_ore, case when f.exact then null else ${v.grams}::int end, f.pant_ore,
            f.ordinary_unit_ore, f.member_unit_ore
          from visit v, found f, cart k
          where v.customer_id = ${v.customer} and v.state = 'in_store'
            and v.store_active and f.is_active and (${v.age_checked}::boolean or coalesce(f.age_limit, 0) = 0)
            and k.line_quantity < ${v.max_line}::int and k.ore + f.unit_ore + f.pant_ore <= ${v.max_total}::bigint
            and not exists (select 1 from previous)
          on conflict (session_id, line_key) do update set quantity = cart_items.quantity + 1, updated_at = now()
          returning id, quantity, unit_price_ore, pant_ore, ordinary_unit_ore, member_unit_ore, weight_grams, line_key,
            product_id
        ),
        scan as (
          insert into cart_scans (scan_id, session_id, item_id)
          select ${v.scan}::uuid, ${v.session}::uuid, id from item where ${v.scan}::uuid is not null
        ),
        -- The visit's timeline, its cart's version and its last activity, in this same statement: only a scan
        -- that added something is an event (a repeated scan_id adds nothing), and a scan costs no extra round trip.
        event as (
          insert into session_events (session_id, store_id, kind, source, detail)
          select v.id, v.store_id, 'item_added', 'phone',
            jsonb_build_object('product', f.name, 'product_id', f.id, 'quantity', 1, 'line_quantity', item.quantity,
              'barcode', ${v.raw}::text, 'label', not f.exact)
          from item, visit v, found f
        ),
        touched as (
          update shopping_sessions set cart_version = cart_version + 1, cart_changed_by = txid_current(),
            last_activity_at = case when last_activity_at < now() - ${ACTIVITY_PRECISION}::interval then now()
                                    else last_activity_at end
          where id = ${v.session}::uuid and exists (select 1 from item)
          returning cart_version
        )
        select (select row_to_json(visit) from visit) as session,
          (select row_to_json(found) from found) as product,
          (select row_to_json(previous) from previous) as previous,
          (select row_to_json(x) from (select item.*, found.name, found.image_url, found.price_ore,
            found.net_content_milli, found.net_content_unit from item, found) x) as item,
          (select line_quantity from cart)::int as line_quantity, (select ore from cart) as cart_ore,
          to_char((${v.at}::timestamptz at time zone (select timezone from visit))::date, 'YYYY-MM-DD')
            as day,
          (select lines from cart) as lines, ${vouchersOf(sql`${v.session}::uuid`)} as vouchers,
          (select cart_version from seen)::text as seen, (select cart_version from touched)::text as after`;
});

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
  /** The moment of the scan (app.saleClock): its store's day picks the campaigns. */
  at?: Date;
  announce?: AnnounceSession;
  /** The instance's copies of carts' lines: a scan reads the lines only when its copy is not of the newest version. */
  kept: KeptCarts;
}): Promise<Scanned> {
  const code = planCode(opts.barcode);
  const storeId = await visitStore(opts.db, opts.sessionId);
  // An unknown visit adds nothing whatever its limits: the statement finds no visit and the shopper hears 404.
  const limits = storeId ? await opts.limitsOf(storeId) : { maxLineQuantity: 0, maxTotalOre: 0 };
  const scanId = opts.scanId ?? null;
  const at = opts.at ?? new Date();
  const actor: CartActor = { kind: "shopper", customerId: opts.customerId };
  for (const ageChecked of [false, true]) {
    const kept = opts.kept.get(opts.sessionId);
    let row: ScanRow;
    try {
      [row] = (await scanStatement(opts.db, {
        customer: opts.customerId,
        session: opts.sessionId,
        scan: scanId,
        age_checked: ageChecked,
        known: kept?.version ?? null,
        known_ore: kept ? linesOre(kept.lines) : null,
        max_line: limits.maxLineQuantity,
        max_total: limits.maxTotalOre,
        at: at.toISOString(),
        price_ore: code?.priceOre ?? null,
        grams: code?.grams ?? null,
        gtin: code?.gtin14 ?? null,
        label_gtin: code?.labelGtin14 ?? null,
        line_label: code ? `label:${code.raw}` : null,
        raw: code?.raw ?? null,
      })) as [ScanRow];
    } catch (err) {
      // The same scan id arrived twice at once: the other one counted it.
      if (!scanId || !isUniqueViolation(err)) throw err;
      const counted = await scannedItem(opts.db, scanId, opts.sessionId);
      if (counted === undefined) throw err;
      return scanned(counted);
    }
    const before = linesBefore(row, kept);
    // The cart after the scan: the lines before it (the statement does not see its own changes) and the line it wrote.
    const lines = row.item ? withLine(before, row.item) : before;
    keepLines(opts.kept, opts.sessionId, row, lines);
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
      return { ...scanned(item), cart: cartAfter(row, session, lines), version: row.after };
    }
    if (row.previous) {
      return {
        ...scanned(await countedItem(opts.db, row.previous, opts.sessionId)),
        cart: cartAfter(row, session, lines),
      };
    }
    checkLimits(limits, product, {
      quantity: row.line_quantity + 1,
      totalOre: Number(row.cart_ore) + product.unit_ore + product.pant_ore,
    });
    // Only the age limit held the scan back, and the shopper is of age: add it now.
    if (!product.age_limit) break;
  }
  throw new Error("the scan passed every check but was not added");
}

/**
 * A scan's answer, and what the shopper's screens hear: the product was
 * added (once, however often it is sent); with, when the statement read it,
 * the cart as it is after the scan, for its offers (null: read it apart),
 * and the visit's cart_version after the line this scan wrote (null: it wrote none).
 */
type Scanned = {
  product: CartItem["product"];
  item: CartItem;
  events: CartEvent[];
  cart: { facts: VisitFacts; lines: readonly OfferLine[] } | null;
  version: string | null;
};
const scanned = (item: CartItem): Scanned => ({
  product: item.product,
  item,
  events: [addedEvent(item)],
  cart: null,
  version: null,
});

/** The lines before the scan: those the statement read, or the kept copy it found to be of their version. */
function linesBefore(row: ScanRow, kept: KeptCart | undefined): readonly OfferLine[] {
  if (kept && row.seen === kept.version) return kept.lines;
  return (row.lines ?? []).map(tupleLine);
}

/**
 * Keeps the lines as they are after the scan, under their version: with the
 * line it wrote when no other change came between (the version rose by one,
 * this scan's); as it read them when it wrote nothing. A cart another
 * transaction changed meanwhile is read anew next time.
 */
function keepLines(kept: KeptCarts, sessionId: string, row: ScanRow, lines: readonly OfferLine[]): void {
  // No visit, nothing to keep.
  if (row.seen === null) return;
  if (!row.item) kept.set(sessionId, { version: row.seen, lines });
  else if (row.after !== null && BigInt(row.after) === BigInt(row.seen) + 1n) {
    kept.set(sessionId, { version: row.after, lines });
  } else kept.drop(sessionId);
}

/** The cart after the scan, for its offers; the lines may be the kept copy's, so they are never changed. */
function cartAfter(row: ScanRow, session: SessionRow, lines: readonly OfferLine[]): Scanned["cart"] {
  if (!row.day) return null;
  const facts = { store_id: session.store_id, day: row.day, member: session.member, vouchers: row.vouchers };
  return { facts, lines };
}

/** `lines` with the line a scan wrote in place of its earlier self, or at the end; a new array. */
function withLine(lines: readonly OfferLine[], item: ItemRow): OfferLine[] {
  const line: OfferLine = {
    id: item.id,
    product_id: item.product_id,
    quantity: item.quantity,
    unit_price_ore: item.unit_price_ore,
    pant_ore: item.pant_ore,
    member_unit_ore: item.member_unit_ore,
    labelled: item.line_key.startsWith("label:"),
    vat_category: "standard",
  };
  const at = lines.findIndex((other) => other.id === item.id);
  return at >= 0 ? lines.with(at, line) : [...lines, line];
}
