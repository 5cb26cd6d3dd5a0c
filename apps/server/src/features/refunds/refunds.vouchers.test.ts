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

/** Three butters (149,70 kr), and any `juices` (19,90 kr each), bought with the vouchers given; answers the order's refunds URL. */
async function boughtWith(vouchers: number[], juices = 0) {
  const who = await shopper(world.ctx.app);
  const visit = await walkIn(world.ctx.app, who, world.lund);
  for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
  for (let i = 0; i < juices; i++) await scan(who, visit, world.codes.juice);
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

  it("with a voucher: lines asked for together share what is left on the card, in the order they were asked for", async () => {
    // 149,70 + 2 × 19,90 = 189,50 kr, of which a voucher paid 100: the card paid 89,50.
    const url = await boughtWith([100], 2);
    const [butter, juice] = (await read(url)).lines;
    const res = await ask(url, {
      lines: [
        { line_id: juice!.id, quantity: 2 },
        { line_id: butter!.id, quantity: 3 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().amount).toBe(89.5);
    // The juices, asked for first, are given back in full; the butters take what is left on the card.
    const after = await read(url);
    expect(after.lines.map((line) => [line.refunded_quantity, line.refunded_ore])).toEqual([
      [3, 4970],
      [2, 3980],
    ]);
    expect(after).toMatchObject({ refunded: 89.5, voucher: 100 });
  });

  it("with a voucher: once the card has had back what it paid, a refund is refused, saying why", async () => {
    const url = await boughtWith([24]);
    expect((await ask(url, { whole: true })).statusCode).toBe(201);
    const again = await ask(url, { whole: true });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "nothing_left",
      detail:
        "Only 0.00 kr is left to refund on this order (24.00 kr was paid with pant vouchers, which are not paid out)",
    });
  });

  it("without a voucher: a whole refund gives back the whole total", async () => {
    const res = await ask(await boughtWith([]), { whole: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().amount).toBe(149.7);
  });
});
