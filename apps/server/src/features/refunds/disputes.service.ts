import type { Dispute, ReceiptDispute } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, conflict, forbidden, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { assertCanManageStore } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { recordAudit } from "../audit/audit.ts";
import { type AnnounceSession, recordSessionEvent } from "../sessions/session-events.ts";

type DisputeRow = {
  id: string;
  order_id: string;
  session_id: string | null;
  store_id: string | null;
  store_name: string;
  receipt_number: number | null;
  customer_name: string | null;
  total_ore: number;
  refunded_ore: number;
  state: "open" | "resolved" | "rejected";
  message: string;
  resolution: string | null;
  created_at: Date | string;
  resolved_at: Date | string | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function receiptView(row: DisputeRow): ReceiptDispute {
  return {
    id: row.id,
    state: row.state,
    message: row.message,
    resolution: row.resolution,
    created_at: iso(row.created_at)!,
    resolved_at: iso(row.resolved_at),
  };
}

function adminView(row: DisputeRow): Dispute {
  return {
    ...receiptView(row),
    order_id: row.order_id,
    session_id: row.session_id,
    store_id: row.store_id,
    store_name: row.store_name,
    receipt_number: row.receipt_number,
    customer_name: row.customer_name,
    total: fromOre(row.total_ore),
    refunded: fromOre(row.refunded_ore),
  };
}

const SELECT = sql`select d.id, d.order_id, o.session_id, d.store_id, o.store_name, o.receipt_number, c.name as customer_name,
    o.total_ore, o.refunded_ore, d.state, d.message, d.resolution, d.created_at, d.resolved_at
  from disputes d join orders o on o.id = d.order_id left join customers c on c.id = d.customer_id`;

/** POST /api/v1/receipts/:id/dispute: the shopper objects to one of their own receipts, one open dispute at a time. */
export async function openDispute(opts: {
  db: Db;
  announce: AnnounceSession;
  customerId: string;
  orderId: string;
  message: string;
}): Promise<ReceiptDispute> {
  const [order] = await queryRows<{ customer_id: string | null; store_id: string | null; session_id: string | null }>(
    opts.db,
    sql`select customer_id, store_id, session_id from orders where id = ${opts.orderId} and state = 'paid'`,
  );
  if (!order) throw notFound("Kvittot finns inte.", "unknown_receipt");
  if (order.customer_id !== opts.customerId) throw forbidden("Det här är inte ditt kvitto.");
  let id: string;
  try {
    id = await opts.db.transaction(async (tx) => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        sql`insert into disputes (order_id, customer_id, store_id, message)
            values (${opts.orderId}, ${opts.customerId}, ${order.store_id}, ${opts.message.trim()}) returning id`,
      );
      if (order.session_id)
        await recordSessionEvent(tx, {
          sessionId: order.session_id,
          storeId: order.store_id,
          kind: "dispute",
          source: "phone",
          activity: false,
          detail: { dispute_id: row!.id },
        });
      return row!.id;
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(
        "Du har redan ett öppet ärende om det här kvittot. Vi hör av oss när vi har tittat på det.",
        "dispute_open",
      );
    throw err;
  }
  if (order.session_id)
    await opts.announce({ store_id: order.store_id, session_id: order.session_id, kind: "dispute" });
  const [row] = await queryRows<DisputeRow>(opts.db, sql`${SELECT} where d.id = ${id}`);
  return receiptView(row!);
}

/** The stores an admin may see, as a condition on `column`; a store they do not manage asked by id is refused. */
export function storeScope(actor: AdminActor, storeId: string | undefined, column: ReturnType<typeof sql.raw>) {
  if (storeId) {
    assertCanManageStore(actor, storeId);
    return sql`${column} = ${storeId}`;
  }
  if (actor.role === "platform_admin") return sql`true`;
  if (actor.storeIds.length === 0) return sql`false`;
  return sql`${column} in (select unnest(${`{${actor.storeIds.join(",")}}`}::uuid[]))`;
}

/** GET /api/v1/admin/disputes: newest first, the admin's stores only. */
export async function listDisputes(opts: {
  db: Db;
  actor: AdminActor;
  query: { store_id?: string; state?: "open" | "resolved" | "rejected"; limit: number; offset: number };
}): Promise<{ items: Dispute[]; total: number }> {
  const where = sql`${storeScope(opts.actor, opts.query.store_id, sql.raw("d.store_id"))}
    and ${opts.query.state ? sql`d.state = ${opts.query.state}` : sql`true`}`;
  const [count] = await queryRows<{ n: number }>(
    opts.db,
    sql`select count(*)::int as n from disputes d where ${where}`,
  );
  const rows = await queryRows<DisputeRow>(
    opts.db,
    sql`${SELECT} where ${where} order by d.created_at desc, d.id limit ${opts.query.limit} offset ${opts.query.offset}`,
  );
  return { items: rows.map(adminView), total: count!.n };
}

/** PUT /api/v1/admin/disputes/:id: staff answer an open dispute, once. */
export async function resolveDispute(opts: {
  db: Db;
  announce: AnnounceSession;
  actor: AdminActor;
  disputeId: string;
  state: "resolved" | "rejected";
  resolution: string;
}): Promise<Dispute> {
  const resolution = opts.resolution.trim();
  const row = await opts.db.transaction(async (tx) => {
    const [current] = await queryRows<DisputeRow>(tx, sql`${SELECT} where d.id = ${opts.disputeId} for update of d`);
    if (!current) throw notFound("Unknown dispute");
    if (current.store_id) assertCanManageStore(opts.actor, current.store_id);
    else if (opts.actor.role !== "platform_admin") throw forbidden("You do not manage this store");
    if (current.state !== "open")
      throw new AppError(
        409,
        "dispute_closed",
        `This dispute was already ${current.state}; it cannot be answered again`,
      );
    await tx.execute(
      sql`update disputes set state = ${opts.state}, resolution = ${resolution}, resolved_by = ${opts.actor.id},
            resolved_at = now() where id = ${current.id}`,
    );
    if (current.session_id)
      await recordSessionEvent(tx, {
        sessionId: current.session_id,
        storeId: current.store_id,
        kind: "dispute_resolved",
        source: "staff",
        adminId: opts.actor.id,
        activity: false,
        detail: { dispute_id: current.id, state: opts.state, resolution },
      });
    await recordAudit(tx, {
      actor: opts.actor,
      action: "dispute.resolve",
      entityType: "dispute",
      entityId: current.id,
      storeId: current.store_id,
      summary: `Dispute on receipt ${current.receipt_number ?? current.order_id} ${opts.state}`,
      before: { state: current.state, resolution: current.resolution },
      after: { state: opts.state, resolution },
    });
    const [updated] = await queryRows<DisputeRow>(tx, sql`${SELECT} where d.id = ${current.id}`);
    return updated!;
  });
  if (row.session_id)
    await opts.announce({ store_id: row.store_id, session_id: row.session_id, kind: "dispute_resolved" });
  return adminView(row);
}
