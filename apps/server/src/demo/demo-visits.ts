import {
  type CalendarDay,
  calendarDay,
  gtinCheckDigit,
  lineRefundOre,
  SWEDISH_VAT_RATES,
  vatRateOn,
} from "@glide/contracts";
import { vatPerRate } from "../features/orders/vat.ts";
import { mustTransition, type VisitEvent, type VisitState } from "../features/visits/visit-state.ts";
import type { DemoProduct } from "./demo-products.ts";
import { type Random, randomSource } from "./demo-random.ts";

/**
 * What happened in the demo stores before the first start: every visit, its
 * scans, its order and payment and the odd refund, decided here in plain
 * TypeScript from a fixed random seed (the same story on every fresh seed).
 * Each visit walks the state machine, an order's VAT is the checkout's own
 * vatPerRate at the rates of the Swedish day it was paid on, and a refund is
 * priced by lineRefundOre, as the console's refund is; demo-history.ts then
 * writes it as those paths write.
 */

/** The demo stores' zone (they are all Swedish), whose calendar days pick the VAT rates. */
const DEMO_TIME_ZONE = "Europe/Stockholm";
const DAY_MS = 86_400_000;

/** The day `days` after a YYYY-MM-DD day (before it when negative). */
const addDays = (day: CalendarDay, days: number): CalendarDay =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A store with a past: how many visits a day, and in which local hours (weights per hour, 0 when closed). */
export type HistoryStore = { id: string; visitsPerDay: [number, number]; hours: readonly number[] };

export type DemoShopper = { id: string; name: string; givenName: string; surname: string; birthDate: string };

export type PlannedLine = {
  itemId: string;
  orderLineId: string;
  product: DemoProduct & { id: string };
  /** The product id, or the label code for a weighed or counter-priced item. */
  lineKey: string;
  barcode: string;
  label: boolean;
  quantity: number;
  unitOre: number;
  weightGrams: number | null;
  /** Hundredths of a percent: the product's category's rate on the day its order was paid; null with no order. */
  vatRateBp: number | null;
  /** When each unit was scanned, ms after the entry code was issued. */
  scans: { id: string; ms: number }[];
  refundedQuantity: number;
  refundedOre: number;
};

export type PlannedRefund = {
  id: string;
  key: string;
  providerId: string;
  reason: string;
  amountOre: number;
  /** ms after the visit's entry code, like every time of a visit. */
  ms: number;
  lines: { line: PlannedLine; quantity: number; amountOre: number }[];
};

export type PlannedVisit = {
  id: string;
  store: number;
  shopper: number;
  /** Days before the store's today, and the local minute of that day the entry code was issued. */
  day: number;
  minute: number;
  tokenHash: string;
  state: VisitState;
  doorMs: number;
  lines: PlannedLine[];
  /** The exit (gate) and the checkout there; null for a visit the sweep closed. */
  exitMs: number | null;
  checkoutMs: number | null;
  abandonedMs: number | null;
  order: {
    id: string;
    totalOre: number;
    vatOre: number;
    paidMs: number;
    receiptNumber: number;
    intentId: string;
    refund: PlannedRefund | null;
  } | null;
};

/** How much of a basket each shelf is: a corner shop sells milk, bread and fruit, seldom batteries. */
const CATEGORY_WEIGHTS: Record<string, number> = {
  Mejeri: 14,
  "Frukt & grönt": 10,
  Dryck: 10,
  Skafferi: 9,
  Bröd: 8,
  Godis: 7,
  Kött: 6,
  Chark: 5,
  Kaffe: 5,
  Snacks: 5,
  Ost: 4,
  Fryst: 4,
  Tobak: 4,
  Ägg: 3,
  Folköl: 3,
  Tidningar: 2,
  Hushåll: 2,
  Hygien: 2,
  Fisk: 1,
  Te: 1,
  Receptfritt: 1,
};
/** Lines in a basket (1–8) and units on a line (1–4), as weights. */
const LINES = [0, 30, 25, 18, 12, 8, 4, 0, 3];
const UNITS = [0, 76, 17, 5, 2];
const REASONS = {
  twice: "Scanned twice by mistake",
  damaged: ["Damaged packaging", "Past its best-before date", "Returned unopened"],
  whole: ["Customer returned the goods", "Charged for another shopper's basket"],
};
/** A variable-measure label of the item: its first eight digits, the value (grams or öre) and a check digit. */
const labelOf = (itemBarcode: string, value: number) => {
  const body = `${itemBarcode.slice(0, 8)}${String(value).padStart(4, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
};

type Shelf = (DemoProduct & { id: string })[];

/** One product's line: its scans' barcode, unit price and weight, as the scan statement prices them. */
function lineOf(random: Random, product: Shelf[number], quantity: number): Omit<PlannedLine, "scans"> {
  const ids = {
    itemId: random.uuid(),
    orderLineId: random.uuid(),
    refundedQuantity: 0,
    refundedOre: 0,
    vatRateBp: null,
  };
  if (!product.measure) {
    const barcode = product.barcode;
    return {
      ...ids,
      product,
      lineKey: product.id,
      barcode,
      label: false,
      quantity,
      unitOre: product.priceOre,
      weightGrams: null,
    };
  }
  // A weight label carries the grams (the product's price is per kg); a price label the piece's price, in four
  // digits of öre (so at most 99.99 kr). Each label is a line of its own.
  const grams = product.category === "Godis" ? random.int(120, 450) : random.int(180, 1600);
  const weighed = product.measure === "weight";
  const unitOre = Math.min(weighed ? Number.MAX_SAFE_INTEGER : 9999, Math.round((product.priceOre * grams) / 1000));
  const barcode = labelOf(product.barcode, weighed ? grams : unitOre);
  const weightGrams = weighed ? grams : null;
  return { ...ids, product, lineKey: `label:${barcode}`, barcode, label: true, quantity: 1, unitOre, weightGrams };
}

/** The state machine's answer to each event in turn; a step it refuses throws, so the demo never holds a visit it would not allow. */
type Step = readonly [VisitEvent, { hasGoods: boolean; gone: boolean }];
function walk(events: readonly Step[]): VisitState {
  let state: VisitState = "entering";
  for (const [event, facts] of events) state = mustTransition(state, event, facts).to;
  return state;
}

function planVisit(
  random: Random,
  shelf: Shelf,
  byCategory: Map<string, Shelf>,
  visit: Pick<PlannedVisit, "id" | "store" | "shopper" | "day" | "minute">,
  today: CalendarDay,
): PlannedVisit {
  const doorMs = random.int(6, 45) * 1000 + random.int(0, 999);
  const inside = { hasGoods: false, gone: false };
  const roll = random.next();
  const base = { ...visit, tokenHash: random.hex(64), doorMs, lines: [], order: null };
  if (roll < 0.04) {
    // Came in, took nothing, and never used the exit: the sweep ended it after the store's 30 quiet minutes.
    const state = walk([
      ["door", inside],
      ["idle", { hasGoods: false, gone: true }],
    ]);
    const abandonedMs = doorMs + 30 * 60_000 + random.int(1_000, 59_000);
    return { ...base, state, exitMs: null, checkoutMs: null, abandonedMs };
  }
  if (roll < 0.13) {
    // Looked around and left through the gate with nothing: an empty checkout, nothing charged.
    const exitMs = doorMs + random.int(60, 600) * 1000;
    const state = walk([
      ["door", inside],
      ["checkout", inside],
    ]);
    return { ...base, state, exitMs, checkoutMs: exitMs + random.int(30, 120), abandonedMs: null };
  }
  const categories = [...byCategory.keys()];
  const weights = categories.map((c) => CATEGORY_WEIGHTS[c] ?? 1);
  const lines: PlannedLine[] = [];
  let ms = doorMs + random.int(20, 90) * 1000;
  for (let wanted = random.weighted(LINES); lines.length < wanted; ) {
    const product = random.pick(byCategory.get(categories[random.weighted(weights)]!)!);
    if (lines.some((line) => line.product.id === product.id)) {
      wanted--;
      continue;
    }
    const line = lineOf(random, product, random.weighted(UNITS));
    const scans = Array.from({ length: line.quantity }, (_, i) => {
      ms += i === 0 ? random.int(15, 120) * 1000 : random.int(2, 6) * 1000;
      return { id: random.uuid(), ms: ms + random.int(0, 999) };
    });
    lines.push({ ...line, scans });
  }
  if (lines.length === 0) lines.push({ ...lineOf(random, shelf[0]!, 1), scans: [{ id: random.uuid(), ms }] });
  const goods = { hasGoods: true, gone: false };
  const state = walk([
    ["door", inside],
    ...lines.map(() => ["cart_change", goods] as const),
    ["checkout", goods],
    ["paid", goods],
  ]);
  const exitMs = ms + random.int(30, 240) * 1000;
  const checkoutMs = exitMs + random.int(30, 120);
  const orderId = random.uuid();
  const paidMs = checkoutMs + random.int(400, 1500);
  // The rates of the Swedish day it is paid on, as the checkout takes them: a visit late at night may pay after midnight.
  const paidDay = addDays(today, Math.floor((visit.minute * 60_000 + paidMs) / DAY_MS) - visit.day);
  for (const line of lines)
    line.vatRateBp = vatRateOn(SWEDISH_VAT_RATES, "SE", line.product.vatCategory, paidDay) ?? 2500;
  const totals = lines.map((line) => ({ totalOre: line.unitOre * line.quantity, vatRateBp: line.vatRateBp! }));
  const order: NonNullable<PlannedVisit["order"]> = {
    id: orderId,
    totalOre: totals.reduce((sum, line) => sum + line.totalOre, 0),
    vatOre: vatPerRate(totals).reduce((sum, rate) => sum + rate.vatOre, 0),
    paidMs,
    receiptNumber: 0,
    intentId: random.providerId("pi"),
    refund: null,
  };
  const planned: PlannedVisit = { ...base, state, lines, exitMs, checkoutMs, abandonedMs: null, order };
  // About one paid visit in thirty gets a refund, an hour to two days later (only where that is still in the past).
  if (visit.day >= 3 && random.next() < 0.035) order.refund = planRefund(random, planned);
  return planned;
}

/** A staff refund: one unit of a line, or the whole order, priced as the console's refund prices it. */
function planRefund(random: Random, visit: PlannedVisit): PlannedRefund {
  const whole = random.next() < 0.3;
  const line = random.pick(visit.lines);
  const asked = whole ? visit.lines.map((l) => ({ line: l, quantity: l.quantity })) : [{ line, quantity: 1 }];
  const lines = asked.map(({ line: l, quantity }) => {
    const amountOre = lineRefundOre(
      { total_ore: l.unitOre * l.quantity, quantity: l.quantity, refunded_quantity: 0 },
      quantity,
    );
    l.refundedQuantity += quantity;
    l.refundedOre += amountOre;
    return { line: l, quantity, amountOre };
  });
  const reason = whole ? random.pick(REASONS.whole) : line.quantity > 1 ? REASONS.twice : random.pick(REASONS.damaged);
  return {
    id: random.uuid(),
    key: random.uuid(),
    providerId: random.providerId("re"),
    reason,
    amountOre: lines.reduce((sum, l) => sum + l.amountOre, 0),
    ms: visit.order!.paidMs + random.int(60, 48 * 60) * 60_000,
    lines,
  };
}

/**
 * `days` days of visits before today (`now`'s day in Stockholm) at each
 * store, oldest first, with receipt numbers from 1 per store in the order the
 * visits were paid.
 */
export function planVisits(opts: {
  stores: HistoryStore[];
  shoppers: number;
  shelf: Shelf;
  days: number;
  seed?: number;
  now?: Date;
}): PlannedVisit[] {
  const random = randomSource(opts.seed ?? 22);
  const today = calendarDay(opts.now ?? new Date(), DEMO_TIME_ZONE);
  const byCategory = new Map<string, Shelf>();
  for (const product of opts.shelf)
    byCategory.set(product.category, [...(byCategory.get(product.category) ?? []), product]);
  const visits: PlannedVisit[] = [];
  for (let day = opts.days; day >= 1; day--) {
    for (const [store, at] of opts.stores.entries()) {
      // Yesterday's last hour is left out: a visit begun then could end after midnight, today.
      const minutes = Array.from(
        { length: random.int(...at.visitsPerDay) },
        () => random.weighted(day === 1 ? at.hours.slice(0, 23) : at.hours) * 60 + random.int(0, 59),
      ).sort((a, b) => a - b);
      for (const minute of minutes)
        visits.push(
          planVisit(
            random,
            opts.shelf,
            byCategory,
            {
              id: random.uuid(),
              store,
              shopper: random.int(0, opts.shoppers - 1),
              day,
              minute,
            },
            today,
          ),
        );
    }
  }
  const receipts = new Map<number, number>();
  const paidAt = (v: PlannedVisit) => -v.day * 86_400_000 + v.minute * 60_000 + v.order!.paidMs;
  for (const visit of visits.filter((v) => v.order).sort((a, b) => paidAt(a) - paidAt(b))) {
    const next = (receipts.get(visit.store) ?? 0) + 1;
    receipts.set(visit.store, next);
    visit.order!.receiptNumber = next;
  }
  return visits;
}
