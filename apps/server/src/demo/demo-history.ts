import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { fromOre } from "../platform/money.ts";
import type { DemoProduct } from "./demo-products.ts";
import { randomSource } from "./demo-random.ts";
import { type HistoryStore, type PlannedVisit, planVisits } from "./demo-visits.ts";

/**
 * Writes the demo's past visits (planned in demo-visits.ts) with the rows and
 * values the live paths leave behind: the shopper, the entry code and the
 * door (sessions.service.ts), each scan's cart line, scan id and event (the
 * cart's scan statement), the exit code spent at the gate, the sweep's close
 * of a quiet visit, and every event of the timeline, the checkout's, the
 * payment's and the refund's too; demo-orders.ts writes the money. Times are
 * store-local days before today, worked out in SQL in each store's zone
 * (the temporary table demo_clock), so the entries count in the analytics
 * hours a live door would have counted them in.
 */

/** ENTRY_TOKEN_TTL_SECONDS's default: how long each past entry code was good for. */
const ENTRY_TTL_MS = 600_000;
/** The door the demo has: no DOOR_WEBHOOK_URL, so the simulated one, opened by the store's scanner. */
const DOOR = { via: "simulated", caller: "scanner" };

const GIVEN = ["Anna", "Erik", "Maria", "Lars", "Karin", "Johan", "Sara", "Mikael", "Elin", "Ahmed", "Linnéa", "Oskar"];
const FAMILY = [
  "Andersson",
  "Johansson",
  "Karlsson",
  "Nilsson",
  "Eriksson",
  "Larsson",
  "Olsson",
  "Persson",
  "Svensson",
  "Gustafsson",
  "Pettersson",
  "Jonsson",
];
const CARDS = [
  ["visa", 6],
  ["mastercard", 3],
  ["amex", 1],
] as const;

type Shelf = (DemoProduct & { id: string })[];
export type HistoryOptions = { stores: HistoryStore[]; shelf: Shelf; days: number; shoppers: number };

/** A demo shopper's row as a BankID sign-in and a saved card leave it (the card's ids are the provider's once paid). */
export type SeedShopper = {
  id: string;
  name: string;
  given_name: string;
  surname: string;
  birth_date: string;
  payment_customer_id: string;
  payment_method_id: string;
  card_brand: string;
  card_last4: string;
};
/** The demo's past, planned before anything is written: the shoppers, and their visits (demo-visits.ts). */
export type DemoHistory = { shoppers: SeedShopper[]; visits: PlannedVisit[] };

/** The rows a statement reads, as JSON: the seed's own values, never a request's. */
export const rowsOf = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;
/** A time of a visit: ms after its entry code was issued (demo_clock c's t0); null stays null. */
export const at = (ms: SQL) => sql`c.t0 + ${ms} * interval '1 millisecond'`;

/**
 * The shoppers and their visits, planned; the ids of their cards and payments
 * are made up here, and replaced by the provider's when there is one
 * (demo-payments.ts).
 */
export function planDemoHistory(opts: HistoryOptions): DemoHistory {
  const random = randomSource(2026);
  const shoppers: SeedShopper[] = Array.from({ length: opts.shoppers }, (_, i) => {
    const [givenName, surname] = [
      GIVEN[i % GIVEN.length]!,
      FAMILY[(i * 5 + Math.floor(i / GIVEN.length)) % FAMILY.length]!,
    ];
    const brand = CARDS[random.weighted(CARDS.map(([, w]) => w))]![0];
    return {
      id: random.uuid(),
      name: `${givenName} ${surname}`,
      given_name: givenName,
      surname,
      birth_date: `${random.int(1952, 2003)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`,
      payment_customer_id: random.providerId("cus", 14),
      payment_method_id: random.providerId("pm"),
      card_brand: brand,
      card_last4: String(random.int(0, 9999)).padStart(4, "0"),
    };
  });
  const visits = planVisits({ stores: opts.stores, shoppers: shoppers.length, shelf: opts.shelf, days: opts.days });
  return { shoppers, visits };
}

/** The shoppers and their visits, written as planned; demo-orders.ts writes their orders next. */
export async function seedDemoVisits(
  tx: Tx,
  { shoppers, visits }: DemoHistory,
  opts: { stores: HistoryStore[]; days: number },
): Promise<void> {
  // Shoppers as a BankID sign-in makes them, with a card on file; their personal numbers are no one's (never a real hash).
  await tx.execute(sql`
    insert into customers (id, personal_number_hash, personal_number_sealed, name, given_name, surname, birth_date,
      payment_customer_id, payment_method_id, card_brand, card_last4, created_at, last_sign_in_at)
    select s.id, 'demo-' || s.id, 'demo-' || s.id, s.name, s.given_name, s.surname, s.birth_date,
      s.payment_customer_id, s.payment_method_id, s.card_brand, s.card_last4,
      now() - ${opts.days + 30} * interval '1 day', now() - interval '1 day'
    from ${rowsOf(shoppers)} as s(id uuid, name text, given_name text, surname text, birth_date date,
      payment_customer_id text, payment_method_id text, card_brand text, card_last4 text)`);

  await tx.execute(sql`
    create temporary table demo_clock on commit drop as
    select v.id, v.store_id,
      ((now() at time zone st.timezone)::date - v.day + make_interval(mins => v.minute)) at time zone st.timezone as t0
    from ${rowsOf(visits.map((v) => ({ id: v.id, store_id: opts.stores[v.store]!.id, day: v.day, minute: v.minute })))}
      as v(id uuid, store_id uuid, day int, minute int)
    join stores st on st.id = v.store_id`);
  // Keyed and counted, so every statement below joins it by hash rather than scanning it per row.
  await tx.execute(sql`alter table demo_clock add primary key (id)`);
  await tx.execute(sql`analyze demo_clock`);

  // The visit as its last change left it: entered at the door, closed at the exit (or by the sweep).
  await tx.execute(sql`
    insert into shopping_sessions (id, customer_id, store_id, entry_token_hash, entry_expires_at, door_opened_at, state,
      entry_used_at, exited_at, checked_out_at, last_activity_at, abandoned_at, created_at)
    select v.id, v.customer_id, c.store_id, v.token_hash, ${at(sql`${ENTRY_TTL_MS}`)}, ${at(sql`v.door_ms`)}, v.state,
      ${at(sql`v.door_ms`)}, ${at(sql`v.exited_ms`)}, ${at(sql`v.closed_ms`)}, ${at(sql`v.active_ms`)},
      ${at(sql`v.abandoned_ms`)}, c.t0
    from ${rowsOf(
      visits.map((v) => ({
        id: v.id,
        customer_id: shoppers[v.shopper]!.id,
        token_hash: v.tokenHash,
        state: v.state,
        door_ms: v.doorMs,
        // The gate opens once the checkout has answered.
        exited_ms: v.exitMs === null ? null : (v.order?.paidMs ?? v.checkoutMs!) + 40,
        closed_ms: v.order?.paidMs ?? (v.abandonedMs === null ? v.checkoutMs : null),
        // The last thing the shopper did: the checkout at the exit, or the door for a visit that went quiet.
        active_ms: v.checkoutMs ?? v.doorMs,
        abandoned_ms: v.abandonedMs,
      })),
    )} as v(id uuid, customer_id uuid, token_hash text, state text, door_ms bigint, exited_ms bigint, closed_ms bigint,
      active_ms bigint, abandoned_ms bigint)
    join demo_clock c on c.id = v.id`);
  await tx.execute(sql`
    insert into door_events (store_id, session_id, via, created_at)
    select c.store_id, c.id, 'device', ${at(sql`v.door_ms`)}
    from ${rowsOf(visits.map((v) => ({ id: v.id, door_ms: v.doorMs })))} as v(id uuid, door_ms bigint)
    join demo_clock c on c.id = v.id`);

  const lines = visits.flatMap((v) => v.lines.map((line, position) => ({ visit: v, line, position })));
  await tx.execute(sql`
    insert into cart_items (id, session_id, product_id, line_key, quantity, unit_price_ore, weight_grams, created_at, updated_at)
    select l.id, c.id, l.product_id, l.line_key, l.quantity, l.unit_ore, l.grams, ${at(sql`l.first_ms`)}, ${at(sql`l.last_ms`)}
    from ${rowsOf(
      lines.map(({ visit, line }) => ({
        id: line.itemId,
        session_id: visit.id,
        product_id: line.product.id,
        line_key: line.lineKey,
        quantity: line.quantity,
        unit_ore: line.unitOre,
        grams: line.weightGrams,
        first_ms: line.scans[0]!.ms,
        last_ms: line.scans.at(-1)!.ms,
      })),
    )} as l(id uuid, session_id uuid, product_id uuid, line_key text, quantity int, unit_ore int, grams int,
      first_ms bigint, last_ms bigint)
    join demo_clock c on c.id = l.session_id`);
  const scans = lines.flatMap(({ visit, line }) => line.scans.map((scan) => ({ visit, line, scan })));
  await tx.execute(sql`
    insert into cart_scans (scan_id, session_id, item_id, created_at)
    select s.id, c.id, s.item_id, ${at(sql`s.ms`)}
    from ${rowsOf(scans.map(({ visit, line, scan }) => ({ id: scan.id, session_id: visit.id, item_id: line.itemId, ms: scan.ms })))}
      as s(id uuid, session_id uuid, item_id uuid, ms bigint)
    join demo_clock c on c.id = s.session_id`);
  const random = randomSource(2027);
  await tx.execute(sql`
    insert into exit_token_uses (nonce, session_id, used_at)
    select e.nonce, c.id, ${at(sql`e.ms`)}
    from ${rowsOf(visits.flatMap((v) => (v.exitMs === null ? [] : [{ id: v.id, nonce: random.providerId("x", 16).slice(2), ms: v.exitMs }])))}
      as e(id uuid, nonce text, ms bigint)
    join demo_clock c on c.id = e.id`);

  await writeTimelines(tx, visits, scans);
}

/** A refund's lines as its event and audit entry name them. */
export const refundLinesOf = (refund: NonNullable<NonNullable<PlannedVisit["order"]>["refund"]>) =>
  refund.lines
    .filter((l) => l.quantity > 0)
    .map((l) => ({
      line_id: l.line.orderLineId,
      name: l.line.product.name,
      quantity: l.quantity,
      amount: fromOre(l.amountOre),
    }));

type Event = { id: string; ms: number; kind: string; source: string; detail: Record<string, unknown> | null };

/** Each visit's timeline, every event with the source and detail its path records, in the order they happened. */
async function writeTimelines(
  tx: Tx,
  visits: PlannedVisit[],
  scans: { visit: PlannedVisit; line: PlannedVisit["lines"][number]; scan: { ms: number } }[],
): Promise<void> {
  const events: Event[] = [];
  const lineQuantity = new Map<string, number>();
  for (const { visit, line, scan } of scans) {
    const quantity = (lineQuantity.get(line.itemId) ?? 0) + 1;
    lineQuantity.set(line.itemId, quantity);
    events.push({
      id: visit.id,
      ms: scan.ms,
      kind: "item_added",
      source: "phone",
      detail: {
        product: line.product.name,
        product_id: line.product.id,
        quantity: 1,
        line_quantity: quantity,
        barcode: line.barcode,
        label: line.label,
      },
    });
  }
  for (const v of visits) {
    events.push({ id: v.id, ms: 0, kind: "entry_issued", source: "phone", detail: null });
    events.push({ id: v.id, ms: v.doorMs, kind: "door_opened", source: "door", detail: DOOR });
    if (v.exitMs !== null) events.push({ id: v.id, ms: v.exitMs, kind: "exit_qr", source: "exit_gate", detail: null });
    if (v.abandonedMs !== null)
      events.push({
        id: v.id,
        ms: v.abandonedMs,
        kind: "abandoned",
        source: "system",
        // last_activity_at as the sweep's jsonb_build_object writes a timestamptz; filled in below.
        detail: { idle_minutes: 30, last_activity_at: null, left_unpaid: false },
      });
    const order = v.order;
    if (!order) {
      if (v.checkoutMs !== null)
        events.push({
          id: v.id,
          ms: v.checkoutMs,
          kind: "checkout",
          source: "system",
          detail: { amount: 0, empty: true },
        });
      continue;
    }
    const amount = fromOre(order.totalOre);
    events.push({ id: v.id, ms: v.checkoutMs!, kind: "checkout", source: "system", detail: { amount, attempt: 1 } });
    events.push({
      id: v.id,
      ms: order.paidMs,
      kind: "charged",
      source: "system",
      detail: { amount, receipt_number: order.receiptNumber, settled_later: false },
    });
    const refund = order.refund;
    if (refund)
      events.push({
        id: v.id,
        ms: refund.ms,
        kind: "refund",
        source: "staff",
        detail: {
          refund_id: refund.id,
          origin: "staff",
          amount: fromOre(refund.amountOre),
          reason: refund.reason,
          lines: refundLinesOf(refund),
        },
      });
  }
  await tx.execute(sql`
    insert into session_events (session_id, store_id, kind, source, detail, created_at)
    select c.id, c.store_id, e.kind, e.source,
      case when e.kind = 'abandoned' then e.detail || jsonb_build_object('last_activity_at', s.last_activity_at) else e.detail end,
      ${at(sql`e.ms`)}
    from ${rowsOf(events)} as e(id uuid, ms bigint, kind text, source text, detail jsonb)
    join demo_clock c on c.id = e.id
    join shopping_sessions s on s.id = e.id
    order by ${at(sql`e.ms`)}, e.ms`);
}
