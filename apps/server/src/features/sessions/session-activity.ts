import type { SessionDetail } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";
import { linePant } from "../pant/pant.ts";
import { ordinaryUnitPrice } from "../pricing/shelf-price.ts";
import { iso } from "./session-row.ts";

type EventRow = {
  id: number | string;
  kind: string;
  source: SessionDetail["timeline"][number]["source"];
  staff_email: string | null;
  detail: Record<string, unknown> | null;
  created_at: Date | string;
};

/** The visit's timeline: every event in the order it happened, with the staff member's email where one acted. */
export async function readTimeline(db: Db, sessionId: string): Promise<SessionDetail["timeline"]> {
  const events = await queryRows<EventRow>(
    db,
    sql`select e.id, e.kind, e.source, a.email as staff_email, e.detail, e.created_at
        from session_events e left join admin_users a on a.id = e.admin_id
        where e.session_id = ${sessionId} order by e.id`,
  );
  return events.map((e) => ({
    id: Number(e.id),
    kind: e.kind,
    source: e.source,
    staff_email: e.staff_email,
    detail: e.detail,
    at: iso(e.created_at)!,
  }));
}

/** The cart's lines as they stand, in the order they were added. */
export async function readCartLines(db: Db, sessionId: string): Promise<SessionDetail["cart"]> {
  const cart = await queryRows<{
    id: string;
    product_id: string;
    name: string;
    quantity: number;
    unit_price_ore: number;
    pant_ore: number;
    ordinary_unit_ore: number | null;
    weight_grams: number | null;
  }>(
    db,
    sql`select i.id, i.product_id, p.name, i.quantity, i.unit_price_ore, i.pant_ore, i.ordinary_unit_ore, i.weight_grams
        from cart_items i join products p on p.id = i.product_id
        where i.session_id = ${sessionId} order by i.created_at, i.id`,
  );
  return cart.map((line) => ({
    id: line.id,
    product_id: line.product_id,
    name: line.name,
    quantity: line.quantity,
    unit_price: fromOre(line.unit_price_ore),
    ordinary_unit_price: ordinaryUnitPrice(line.ordinary_unit_ore),
    total: fromOre(line.unit_price_ore * line.quantity),
    weight_grams: line.weight_grams,
    pant: linePant(line.pant_ore, line.quantity),
  }));
}

/** The staff check drawn for the visit, with who decided it, or null when none was drawn. */
export async function readSpotCheck(db: Db, sessionId: string): Promise<SessionDetail["spot_check_detail"]> {
  const [check] = await queryRows<{
    id: string;
    outcome: string | null;
    note: string | null;
    flagged_at: Date | string;
    decided_at: Date | string | null;
    staff_email: string | null;
  }>(
    db,
    sql`select c.id, c.outcome, c.note, c.flagged_at, c.decided_at, a.email as staff_email
        from spot_checks c left join admin_users a on a.id = c.decided_by where c.session_id = ${sessionId}`,
  );
  return check
    ? {
        id: check.id,
        outcome: check.outcome,
        note: check.note,
        flagged_at: iso(check.flagged_at)!,
        decided_at: iso(check.decided_at),
        staff_email: check.staff_email,
      }
    : null;
}
