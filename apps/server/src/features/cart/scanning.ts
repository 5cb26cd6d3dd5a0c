import type { CartItem } from "@glide/contracts";
import { parseBarcode, parseVariableMeasure } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { batches } from "../../platform/batches.ts";
import { AppError, conflict, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { type OfferLine, tupleLine, type VisitFacts } from "../pricing/cart-offers.ts";
import type { PricingBox, ScanPricing } from "../pricing/scan-pricing.ts";
import { type AnnounceSession, announceNothing } from "../sessions/session-events.ts";
import { checkAgeLimit } from "./age-limit.ts";
import { addedEvent, type CartEvent } from "./cart.events.ts";
import { type ItemRow, readItem, toItem } from "./cart.service.ts";
import { type CartLimits, checkLimits, visitStore } from "./cart-limits.ts";
import { type CartActor, checkSession, type SessionRow } from "./cart-visit.ts";
import { type KeptCart, type KeptCarts, linesOre } from "./kept-carts.ts";
import {
  type CountedScan,
  type ScanRow,
  type ScanValues,
  scanBatchStatement,
  scanNowStatement,
  scanStatement,
} from "./scan-statement.ts";

/** How an instance sends its scans' statements: each as it comes while the database keeps up, in batches when not. */
export type Scans = (scan: ScanValues) => Promise<ScanRow>;

/**
 * At most this many scans' statements under way at once on an instance
 * (a quarter of its default pool of 10 connections, so that the rest of
 * the service keeps the others), and at most this many scans in one batch.
 * bench/results.md (Cart) has how they were chosen.
 */
export const SCAN_BATCHES = { inFlight: 3, most: 32 };

/**
 * The instance's batches of scans on `db` (batches in platform). A batch
 * never waits on a visit a checkout holds while its card is charged: it
 * passes the visit over, and that scan alone then waits for the checkout,
 * outside the batches, as every scan did before there were any.
 */
export function scanBatches(db: Db, limits = SCAN_BATCHES): Scans {
  return batches({
    ...limits,
    key: (scan: ScanValues) => scan.session,
    run: async (scans) =>
      scans.length === 1 ? scanNowStatement(db, scans[0]!) : scanBatchStatement(db, { scans: JSON.stringify(scans) }),
    again: (row) => row.session === null,
    alone: async (scan) => (await scanStatement(db, scan))[0]!,
  });
}

/** The line a scan id (or a recognition worker's event id) went to, or undefined if the id is new. */
export async function scannedItem(db: Db | Tx, scanId: string, sessionId: string): Promise<CartItem | undefined> {
  const [scan] = await queryRows<CountedScan>(
    db,
    sql`select session_id, item_id from cart_scans where scan_id = ${scanId}`,
  );
  return scan ? countedItem(db, scan, sessionId) : undefined;
}

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
  /** How the scan's statement is sent: the instance's batches (scanBatches). */
  scans: Scans;
}): Promise<Scanned> {
  const code = planCode(opts.barcode);
  const actor: CartActor = { kind: "shopper", customerId: opts.customerId };
  const storeId = await visitStore(opts.db, opts.sessionId);
  // An unknown visit: checkSession answers 404 before any statement (a batch would pass it over and send it again).
  if (!storeId) checkSession(actor, undefined);
  const limits = await opts.limitsOf(storeId!);
  const scanId = opts.scanId ?? null;
  const at = opts.at ?? new Date();
  for (const ageChecked of [false, true]) {
    const kept = opts.kept.get(opts.sessionId);
    let row: ScanRow;
    try {
      row = await opts.scans({
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
      });
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
    // The lines before the scan priced group by group when they are the kept copy's; the lines after it are
    // priced into a box kept with them, for the next scan.
    const current = kept && row.seen === kept.version ? kept.priced : undefined;
    const priced: PricingBox = row.item ? {} : (current ?? {});
    const pricing: ScanPricing = { before: current?.groups, added: row.item?.product_id ?? null, into: priced };
    keepLines(opts.kept, opts.sessionId, row, lines, priced);
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
      return { ...scanned(item), cart: cartAfter(row, session, lines, pricing), version: row.after };
    }
    if (row.previous) {
      return {
        ...scanned(await countedItem(opts.db, row.previous, opts.sessionId)),
        cart: cartAfter(row, session, lines, pricing),
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
  cart: { facts: VisitFacts; lines: readonly OfferLine[]; pricing: ScanPricing } | null;
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
function keepLines(
  kept: KeptCarts,
  sessionId: string,
  row: ScanRow,
  lines: readonly OfferLine[],
  priced: PricingBox,
): void {
  // No visit, nothing to keep.
  if (row.seen === null) return;
  if (!row.item) kept.set(sessionId, { version: row.seen, lines, priced });
  else if (row.after !== null && BigInt(row.after) === BigInt(row.seen) + 1n) {
    kept.set(sessionId, { version: row.after, lines, priced });
  } else kept.drop(sessionId);
}

/** The cart after the scan, for its offers; the lines may be the kept copy's, so they are never changed. */
function cartAfter(
  row: ScanRow,
  session: SessionRow,
  lines: readonly OfferLine[],
  pricing: ScanPricing,
): Scanned["cart"] {
  if (!row.day) return null;
  const facts = { store_id: session.store_id, day: row.day, member: session.member, vouchers: row.vouchers };
  return { facts, lines, pricing };
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
