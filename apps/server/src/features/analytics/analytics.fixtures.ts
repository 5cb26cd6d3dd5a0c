import { randomBytes } from "node:crypto";
import { analyticsSummarySchema, type Store } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { z } from "zod";
import { customers, orderLines, orders, products, refunds, shoppingSessions } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * What the analytics tests share: one app per test file (opened by
 * `openAnalyticsTests`), a platform admin, one shopper, and rows written as
 * checkout, the door and refunds write them, on chosen dates.
 */
export let ctx: TestContext;
export let admin: ReturnType<typeof as>;
let customerId: string;

/** Opens this test file's app, signs in a platform admin and makes the shopper (its `beforeAll`). */
export async function openAnalyticsTests(): Promise<void> {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  const tag = randomBytes(6).toString("hex");
  const [c] = await ctx.app.db
    .insert(customers)
    .values({ personalNumberHash: tag, personalNumberSealed: tag, name: "Ana Lys", birthDate: "1990-01-01" })
    .returning();
  customerId = c!.id;
}

/** A store made through the API, in `timezone`. */
export const createStore = async (name: string, timezone = "Europe/Stockholm"): Promise<Store> => {
  const res = await admin.post("/api/v1/stores/", { name, timezone });
  expect(res.statusCode).toBe(201);
  return res.json();
};

/** A product written directly, in `category`. */
export const createProduct = async (name: string, category: string | null, priceOre = 1000) => {
  const [p] = await ctx.app.db
    .insert(products)
    .values({ sku: `an-${randomBytes(4).toString("hex")}`, name, category, priceOre })
    .returning();
  return p!;
};

type Line = { product: { id: string; name: string }; quantity: number; unitOre: number; vatBp?: number };
const vatOf = (totalOre: number, bp: number) => Math.round((totalOre * bp) / (10_000 + bp));

/**
 * An order as checkout makes one: awaiting payment with its lines, then
 * paid in a second statement (what the triggers watch), unless `state` says otherwise.
 */
export async function placeOrder(storeId: string, paidAt: string, lines: Line[], state: "paid" | "declined" = "paid") {
  const db = ctx.app.db;
  const totals = lines.map((l) => l.quantity * l.unitOre);
  const totalOre = totals.reduce((a, b) => a + b, 0);
  const vatOre = lines.reduce((a, l, i) => a + vatOf(totals[i]!, l.vatBp ?? 2500), 0);
  const [order] = await db
    .insert(orders)
    .values({ storeId, customerId, totalOre, vatOre, storeName: "x", createdAt: new Date(paidAt) })
    .returning();
  await db.insert(orderLines).values(
    lines.map((l, i) => ({
      orderId: order!.id,
      position: i + 1,
      productId: l.product.id,
      name: l.product.name,
      quantity: l.quantity,
      unitPriceOre: l.unitOre,
      vatRateBp: l.vatBp ?? 2500,
      totalOre: totals[i]!,
    })),
  );
  await db.execute(
    state === "paid"
      ? sql`update orders set state = 'paid', paid_at = ${paidAt}::timestamptz where id = ${order!.id}`
      : sql`update orders set state = 'declined', failure_code = 'card_declined' where id = ${order!.id}`,
  );
  return { id: order!.id, totalOre, vatOre };
}

/** A visit through the door of `storeId` at `at`. */
export async function openDoor(storeId: string, at: string) {
  const [s] = await ctx.app.db
    .insert(shoppingSessions)
    .values({ storeId, customerId, entryTokenHash: randomBytes(8).toString("hex"), entryExpiresAt: new Date(at) })
    .returning();
  await ctx.app.db.execute(sql`update shopping_sessions set door_opened_at = ${at}::timestamptz where id = ${s!.id}`);
}

/** A refund of `amountOre` on the order, made at `at`. */
export async function refund(
  orderId: string,
  amountOre: number,
  at: string,
  state: "pending" | "succeeded" = "succeeded",
) {
  const [r] = await ctx.app.db
    .insert(refunds)
    .values({
      orderId,
      amountOre,
      reason: "test",
      state,
      idempotencyKey: randomBytes(8).toString("hex"),
      createdAt: new Date(at),
    })
    .returning();
  await ctx.app.db.execute(sql`update orders set refunded_ore = refunded_ore + ${amountOre} where id = ${orderId}`);
  return r!.id;
}

/** The provider refused: the refund fails and its amount is free again, as the refunds code does it. */
export async function failRefund(refundId: string) {
  await ctx.app.db.transaction(async (tx) => {
    await tx.execute(sql`update refunds set state = 'failed' where id = ${refundId}`);
    await tx.execute(sql`update orders o set refunded_ore = refunded_ore - r.amount_ore
      from refunds r where r.id = ${refundId} and o.id = r.order_id`);
  });
}

/** A query string of the parameters given, leaving out the undefined ones. */
export const q = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])) as [string, string][],
  ).toString();

/** One analytics table as `who` reads it, checked against its contract schema. */
export async function read<T>(
  who: ReturnType<typeof as>,
  table: string,
  schema: z.ZodType<T>,
  params: Record<string, string | number | undefined>,
) {
  const res = await who.get(`/api/v1/admin/analytics/${table}?${q(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return schema.parse(res.json());
}
/** The summary as `who` (the platform admin unless told) reads it. */
export const summary = (params: Record<string, string | undefined>, who = admin) =>
  read(who, "summary", analyticsSummarySchema, params);
