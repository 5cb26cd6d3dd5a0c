import type { CalendarDay } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { sql } from "../../db/client.ts";
import { preparedOnce } from "../../db/prepared.ts";
import { lineValueOre, pantOreOf } from "../pant/pant.ts";
import { type LineTuple, lineTuples, type VisitVoucher, vouchersOf } from "../pricing/cart-offers.ts";
import { shelfPriceOf } from "../pricing/shelf-price.ts";
import { ACTIVITY_PRECISION } from "../sessions/session-events.ts";
import type { ItemRow } from "./cart.service.ts";
import { type SessionRow, sessionSelect } from "./cart-visit.ts";

/** A scan id's earlier scan: the visit it was sent in and the line it went to (which may have been removed since). */
export type CountedScan = { session_id: string; item_id: string | null };

export type FoundProduct = {
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

/** What the statement answers for one scan of its batch. */
export type ScanRow = {
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

/** One scan's values, as the statement takes them. */
export type ScanValues = {
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

/** Each value's type in the statement's input: a value of ScanValues without one does not compile. */
const TYPES: { [K in keyof ScanValues]: string } = {
  customer: "uuid",
  session: "uuid",
  scan: "uuid",
  age_checked: "boolean",
  max_line: "int",
  max_total: "bigint",
  at: "timestamptz",
  known: "bigint",
  known_ore: "bigint",
  price_ore: "int",
  grams: "int",
  gtin: "text",
  label_gtin: "text",
  line_label: "text",
  raw: "text",
};

/** The input's columns, in the order the statement names them. */
const COLUMNS = Object.entries(TYPES) as [keyof ScanValues, string][];

/** The batch statement's one slot: its scans, as a JSON array in their order. */
export type ScanBatch = { scans: string };

/**
 * One round trip for a batch of scans, each of another visit: for each,
 * the visit (locked against a checkout, see sessionSelect), the product,
 * the scan_id's earlier scan, and, when nothing stands in the way, one more
 * on the product's line and the scan_id recorded; one row per scan, in the
 * batch's order (`n`, from 1). Whether something stood in the way is
 * decided here in SQL only to keep the write from happening; which error
 * the shopper hears is decided by the same checks in TypeScript as for
 * every other cart call. Age-limited goods are never added here unless
 * `age_checked`: the age rule lives in checkAgeLimit alone. Built once and
 * prepared: planning it cost PostgreSQL more than running it, and building
 * it on every scan cost the server its SQL objects; and a batch, because
 * setting up a plan this size costs PostgreSQL more than the rows it reads
 * and writes, and a batch sets it up once for all its scans
 * (bench/results.md, Cart). `input` is the scans' values, a row each,
 * numbered `n`; their visits must differ, as a visit's new line, version
 * and event are matched to its scan by the visit. With `lock` "skip locked"
 * a visit that a checkout holds is passed over: its scan finds no visit.
 */
function scanBatch(input: SQL, lock: true | "skip locked"): SQL {
  const shelf = shelfPriceOf("p", sql`x.store_id`, sql`x.at` as never, sql`x.member`);
  return sql`with input as (${input}),
        visit as (
          select x.n, v.* from input x cross join lateral (${sessionSelect(sql`x.session` as never, lock)}) v
        ),
        -- The scan's values beside its visit's store and shopper, which price the product.
        priced as (select x.*, v.store_id, v.member, v.timezone from input x join visit v on v.n = x.n),
        found as (
          select f.*,
            case when f.exact then least(f.price_ore, f.campaign_ore)
                 when f.label_price_ore is not null then f.label_price_ore
                 else round(f.price_ore * f.grams / 1000.0)::int end as unit_ore,
            case when f.exact and f.campaign_ore < f.price_ore then f.price_ore end as ordinary_unit_ore,
            case when f.exact and f.member_campaign_ore < least(f.price_ore, f.campaign_ore)
                 then f.member_campaign_ore end as member_unit_ore
          from priced x cross join lateral (
            select x.n, x.price_ore as label_price_ore, x.grams,
              p.id, p.name, p.image_url, ${shelf.ordinary} as price_ore, p.net_content_milli, p.net_content_unit,
              p.is_active, p.age_limit, b.gtin14 = x.gtin as exact,
              ${shelf.campaign} as campaign_ore, ${shelf.memberCampaign} as member_campaign_ore,
              case when b.gtin14 = x.gtin then p.id::text else x.line_label end as line_key,
              ${pantOreOf("p", sql`x.store_id`)} as pant_ore
            from product_barcodes b join products p on p.id = b.product_id
            where b.gtin14 in (x.gtin, x.label_gtin)
            order by exact desc
            limit 1
          ) f
        ),
        -- Only whether the scan_id was counted: a repeat reads its line apart (countedItem), as repeats are rare.
        previous as (select x.n, c.session_id, c.item_id from input x join cart_scans c on c.scan_id = x.scan),
        -- The cart's version in this statement's snapshot, the one its lines are read in (the locked visit above may
        -- be a newer row than the snapshot's).
        seen as (select x.n, s.cart_version from input x join shopping_sessions s on s.id = x.session),
        -- The cart before this scan, in one pass over its lines (their sum and the lines for pricing), unless the
        -- instance keeps the lines of this version: then the scan reads only the code's own line.
        whole as (
          select x.n, coalesce(sum(${lineValueOre("i")}), 0)::bigint as ore, ${lineTuples} as lines
          from input x join seen on seen.n = x.n join cart_items i on i.session_id = x.session
          where seen.cart_version is distinct from x.known
          group by x.n
        ),
        cart as (
          select x.n, case when seen.cart_version = x.known then x.known_ore else coalesce(whole.ore, 0) end as ore,
            coalesce((select i.quantity from cart_items i
              where i.session_id = x.session and i.line_key = found.line_key), 0) as line_quantity,
            whole.lines
          from input x left join seen on seen.n = x.n left join whole on whole.n = x.n left join found on found.n = x.n
        ),
        item as (
          insert into cart_items (session_id, product_id, line_key, quantity, unit_price_ore, weight_grams, pant_ore,
            ordinary_unit_ore, member_unit_ore)
          select v.id, f.id, f.line_key, 1, f.unit_ore, case when f.exact then null else x.grams end, f.pant_ore,
            f.ordinary_unit_ore, f.member_unit_ore
          from input x join visit v on v.n = x.n join found f on f.n = x.n join cart k on k.n = x.n
          where v.customer_id = x.customer and v.state = 'in_store'
            and v.store_active and f.is_active and (x.age_checked or coalesce(f.age_limit, 0) = 0)
            and k.line_quantity < x.max_line and k.ore + f.unit_ore + f.pant_ore <= x.max_total
            and not exists (select 1 from previous where previous.n = x.n)
          on conflict (session_id, line_key) do update set quantity = cart_items.quantity + 1, updated_at = now()
          returning id, quantity, unit_price_ore, pant_ore, ordinary_unit_ore, member_unit_ore, weight_grams, line_key,
            product_id, session_id
        ),
        scan as (
          insert into cart_scans (scan_id, session_id, item_id)
          select x.scan, x.session, item.id from input x join item on item.session_id = x.session
          where x.scan is not null
        ),
        -- The visit's timeline, its cart's version and its last activity, in this same statement: only a scan
        -- that added something is an event (a repeated scan_id adds nothing), and a scan costs no extra round trip.
        event as (
          insert into session_events (session_id, store_id, kind, source, detail)
          select v.id, v.store_id, 'item_added', 'phone',
            jsonb_build_object('product', f.name, 'product_id', f.id, 'quantity', 1, 'line_quantity', item.quantity,
              'barcode', x.raw, 'label', not f.exact)
          from input x join item on item.session_id = x.session join visit v on v.n = x.n join found f on f.n = x.n
        ),
        touched as (
          update shopping_sessions set cart_version = cart_version + 1, cart_changed_by = txid_current(),
            last_activity_at = case when last_activity_at < now() - ${ACTIVITY_PRECISION}::interval then now()
                                    else last_activity_at end
          where id in (select session_id from item)
          returning id, cart_version
        )
        select x.n,
          (select row_to_json(v) from visit v where v.n = x.n) as session,
          (select row_to_json(found) from found where found.n = x.n) as product,
          (select row_to_json(r) from (select p.session_id, p.item_id from previous p where p.n = x.n) r) as previous,
          (select row_to_json(r) from (select item.id, item.quantity, item.unit_price_ore, item.pant_ore,
            item.ordinary_unit_ore, item.member_unit_ore, item.weight_grams, item.line_key, item.product_id,
            found.name, found.image_url, found.price_ore, found.net_content_milli, found.net_content_unit
            from item, found where item.session_id = x.session and found.n = x.n) r) as item,
          cart.line_quantity::int as line_quantity, cart.ore as cart_ore,
          (select to_char((x.at at time zone v.timezone)::date, 'YYYY-MM-DD') from visit v where v.n = x.n) as day,
          cart.lines, ${vouchersOf(sql`x.session`)} as vouchers,
          seen.cart_version::text as seen, (select t.cart_version from touched t where t.id = x.session)::text as after
        from input x left join cart on cart.n = x.n left join seen on seen.n = x.n
        order by x.n`;
}

/** One scan, its values in slots of their own, so that PostgreSQL plans for the one row it is. */
const oneScan = (v: { [K in keyof ScanValues]: unknown }) =>
  sql`select ${sql.join(
    COLUMNS.map(([key, type]) => sql`${v[key]}::${sql.raw(type)} as ${sql.identifier(key)}`),
    sql`, `,
  )}, 1::bigint as n`;

/** One scan that waits for its visit while a checkout holds it, then reads the state the checkout left. */
export const scanStatement = preparedOnce<ScanValues, ScanRow>("cart_scan", (v) => scanBatch(oneScan(v), true));

/** One scan that passes over a visit a checkout holds (it then finds no visit), so that it does not wait for a checkout. */
export const scanNowStatement = preparedOnce<ScanValues, ScanRow>("cart_scan_now", (v) =>
  scanBatch(oneScan(v), "skip locked"),
);

/**
 * Several scans, each of another visit, as one JSON array, passing over the
 * visits that checkouts hold. PostgreSQL cannot tell a batch's size from
 * its text, so it keeps one plan for every size instead of planning each
 * batch anew, as it would for arrays it can count.
 */
export const scanBatchStatement = preparedOnce<ScanBatch, ScanRow>("cart_scan_batch", (v) => {
  const columns = sql.raw(COLUMNS.map(([key, type]) => `${key} ${type}`).join(", "));
  const names = sql.raw(COLUMNS.map(([key]) => key).join(", "));
  return scanBatch(
    sql`select * from rows from (jsonb_to_recordset(${v.scans}::jsonb) as (${columns})) with ordinality as x(${names}, n)`,
    "skip locked",
  );
});
