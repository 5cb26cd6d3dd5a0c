import type { SpotCheck, SpotCheckDecision } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { storeScope } from "../refunds/disputes.service.ts";

/** A spot check as read for the console, with its order's lines. */
export type CheckRow = {
  id: string;
  session_id: string | null;
  order_id: string | null;
  store_id: string | null;
  store_name: string | null;
  receipt_number: number | null;
  customer_name: string | null;
  flagged_at: Date | string;
  outcome: SpotCheck["outcome"];
  note: string | null;
  decided_at: Date | string | null;
  adjustments: Adjustments | null;
  charge_ore: number | null;
  refund_id: string | null;
  lines: Array<{
    id: string;
    name: string;
    quantity: number;
    total_ore: number;
    refunded_quantity: number;
    origin: string;
  }>;
};

/** What staff decided, kept with the check: the request's key, and the extra charge's progress. */
export type Adjustments = {
  idempotency_key: string;
  request: SpotCheckDecision;
  /** When the request claimed the check (before any money moved). */
  claimed_at?: string;
  added?: Array<{
    product_id: string;
    name: string;
    quantity: number;
    unit_price_ore: number;
    /** Öre of pant for one; absent in checks decided before pant. */
    pant_ore?: number;
    /** The ordinary price when a campaign gave unit_price_ore; absent or null otherwise. */
    ordinary_unit_ore?: number | null;
    vat_rate_bp: number;
  }>;
  charge?: { state: "pending" | "paid" | "declined"; failure_code: string | null };
};

const SELECT = sql`select k.id, k.session_id, k.order_id, k.store_id, o.store_name, o.receipt_number,
    c.name as customer_name, k.flagged_at, k.outcome, k.note, k.decided_at, k.adjustments, k.charge_ore, k.refund_id,
    coalesce((select json_agg(json_build_object('id', l.id, 'name', l.name, 'quantity', l.quantity,
                'total_ore', l.total_ore - l.discount_ore, 'refunded_quantity', l.refunded_quantity, 'origin', l.origin) order by l.position)
              from order_lines l where l.order_id = k.order_id), '[]'::json) as lines
  from spot_checks k left join orders o on o.id = k.order_id left join customers c on c.id = k.customer_id`;

/** A check as the API shows it. */
export function view(row: CheckRow): SpotCheck {
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    id: row.id,
    session_id: row.session_id,
    order_id: row.order_id,
    store_id: row.store_id,
    store_name: row.store_name,
    receipt_number: row.receipt_number,
    customer_name: row.customer_name,
    flagged_at: iso(row.flagged_at)!,
    outcome: row.outcome,
    note: row.note,
    decided_at: iso(row.decided_at),
    charge:
      row.charge_ore !== null && row.adjustments?.charge
        ? {
            amount: fromOre(row.charge_ore),
            state: row.adjustments.charge.state,
            failure_code: row.adjustments.charge.failure_code,
          }
        : null,
    refund_id: row.refund_id,
    lines: row.lines.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      total: fromOre(line.total_ore),
      refunded_quantity: line.refunded_quantity,
      origin: line.origin,
    })),
  };
}

/** GET /api/v1/admin/spot-checks: pending ones (oldest first, to be seen to) or decided ones (newest first). */
export async function listSpotChecks(opts: {
  db: Db;
  actor: AdminActor;
  query: { store_id?: string; state?: "pending" | "decided"; limit: number; offset: number };
}): Promise<{ items: SpotCheck[]; total: number }> {
  const state =
    opts.query.state === "pending"
      ? sql`k.outcome is null`
      : opts.query.state === "decided"
        ? sql`k.outcome is not null`
        : sql`true`;
  const where = sql`${storeScope(opts.actor, opts.query.store_id, sql.raw("k.store_id"))} and ${state}`;
  const [count] = await queryRows<{ n: number }>(
    opts.db,
    sql`select count(*)::int as n from spot_checks k where ${where}`,
  );
  const order = opts.query.state === "pending" ? sql`k.flagged_at asc` : sql`coalesce(k.decided_at, k.flagged_at) desc`;
  const rows = await queryRows<CheckRow>(
    opts.db,
    sql`${SELECT} where ${where} order by ${order}, k.id limit ${opts.query.limit} offset ${opts.query.offset}`,
  );
  return { items: rows.map(view), total: count!.n };
}

/** One check as the console reads it, or undefined. */
export async function readCheck(db: Db, id: string): Promise<CheckRow | undefined> {
  const [row] = await queryRows<CheckRow>(db, sql`${SELECT} where k.id = ${id}`);
  return row;
}
