import { randomUUID } from "node:crypto";
import { orderRefundsSchema, receiptSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { printedVoucher, shopper, walkIn } from "../../test/factories.ts";
import { offerWorldOfFile, scan } from "../pricing/cart-offers.fixtures.ts";

/**
 * What the refund dialog is told about an order paid partly with pant
 * machine vouchers (GET …/refunds: `voucher`), so it can show the amount the
 * server will give back: never more than the card paid.
 */
const world = offerWorldOfFile();

/** Three butters (149,70 kr) bought with the vouchers given; answers the order's refunds URL. */
async function boughtWith(vouchers: number[]) {
  const who = await shopper(world.ctx.app);
  const visit = await walkIn(world.ctx.app, who, world.lund);
  for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
  for (const kronor of vouchers) {
    const res = await who.call({
      method: "POST",
      url: "/api/v1/cart/vouchers",
      payload: { session_id: visit, barcode: await printedVoucher(world.ctx.app, world.lund, kronor) },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
  expect(paid.statusCode, paid.body).toBe(200);
  return `/api/v1/admin/orders/${receiptSchema.parse(paid.json().receipt).id}/refunds`;
}

const read = async (url: string) => orderRefundsSchema.parse((await world.admin.get(url)).json());
const ask = (url: string, body: object) =>
  world.admin.post(url, { idempotency_key: randomUUID(), reason: "Trasig", ...body });

describe("the refund dialog's order", () => {
  it("names what the vouchers paid, all of them together; 0 when none paid", async () => {
    const paidWithTwo = await read(await boughtWith([20, 4]));
    expect(paidWithTwo).toMatchObject({ total: 149.7, refunded: 0, voucher: 24 });
    expect(paidWithTwo.lines.map((line) => line.total_ore)).toEqual([14970]);
    expect(await read(await boughtWith([]))).toMatchObject({ total: 149.7, voucher: 0 });
  });

  it("with a voucher: a whole refund gives back what the card paid, not the total", async () => {
    const url = await boughtWith([24]);
    const res = await ask(url, { whole: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().amount).toBe(125.7);
    expect(await read(url)).toMatchObject({ refunded: 125.7, voucher: 24 });
  });

  it("with a voucher: units beyond what is left on the card give back only what is left", async () => {
    const url = await boughtWith([24]);
    const line = (await read(url)).lines[0]!;
    // Two of three come within the card's 125,70; the third's 49,90 is worth more than the 25,90 left.
    expect((await ask(url, { lines: [{ line_id: line.id, quantity: 2 }] })).json().amount).toBe(99.8);
    const after = await read(url);
    expect(after.lines[0]).toMatchObject({ refunded_quantity: 2, refunded_ore: 9980 });
    expect((await ask(url, { lines: [{ line_id: line.id, quantity: 1 }] })).json().amount).toBe(25.9);
  });

  it("without a voucher: a whole refund gives back the whole total", async () => {
    const res = await ask(await boughtWith([]), { whole: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().amount).toBe(149.7);
  });
});
