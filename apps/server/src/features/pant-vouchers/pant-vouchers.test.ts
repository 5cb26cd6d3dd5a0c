import { randomUUID } from "node:crypto";
import { cartSchema, orderRefundsSchema, receiptSchema, sessionDetailSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { printedVoucher, shopper, type TestShopper, voucherCode, walkIn } from "../../test/factories.ts";
import { createDeviceKey } from "../../test/harness.ts";
import { idempotencyKeyOf } from "../payments/charge.ts";
import { offerWorldOfFile, scan } from "../pricing/cart-offers.fixtures.ts";
import { sweepAbandoned } from "../sessions/abandoned-sweep.ts";

/**
 * Pant machine vouchers (pantkvitto) on the cart: a means of payment taken
 * once in the whole chain, paying part of the card's charge; the receipt's
 * total and VAT stand, and refunds give back no more than the card paid.
 */
const world = offerWorldOfFile();

/** A voucher worth `kronor` that Lund's pant machine printed and reported. */
const voucher = (kronor: number) => printedVoucher(world.ctx.app, world.lund, kronor);

const add = (who: TestShopper, visit: string, barcode: string, scanId?: string) =>
  who.call({
    method: "POST",
    url: "/api/v1/cart/vouchers",
    payload: { session_id: visit, barcode, ...(scanId ? { scan_id: scanId } : {}) },
  });

async function inStore(store = world.lund) {
  const who = await shopper(world.ctx.app);
  return { who, visit: await walkIn(world.ctx.app, who, store) };
}

describe("a voucher on the cart", () => {
  it("pays part of the cart: the total stands, the card pays the rest", async () => {
    const { who, visit } = await inStore();
    for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
    const code = await voucher(24);
    const res = await add(who, visit, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(cartSchema.parse(res.json())).toMatchObject({
      total: 149.7,
      vouchers: [{ code, amount: 24 }],
      to_pay: 125.7,
    });
    // The next scan's answer and the cart say the same.
    expect((await scan(who, visit, world.codes.juice)).total).toBe(169.6);
    const cart = cartSchema.parse((await who.call({ method: "GET", url: `/api/v1/cart/${visit}` })).json());
    expect(cart).toMatchObject({ total: 169.6, to_pay: 145.6 });
  });

  it("may come before any goods; the card then has nothing to pay yet", async () => {
    const { who, visit } = await inStore();
    const res = await add(who, visit, await voucher(10));
    expect(res.json()).toMatchObject({ items: [], total: 0, to_pay: 0, vouchers: [{ amount: 10 }] });
  });

  it("is refused when it is no voucher, and nothing is written", async () => {
    const { who, visit } = await inStore();
    const good = voucherCode(10);
    const bad = `${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`;
    for (const barcode of [world.codes.butter, voucherCode(0), bad]) {
      const res = await add(who, visit, barcode);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail).toBe("Det här är inget pantkvitto vi kan ta emot. Kontrollera koden och försök igen.");
    }
    const [{ n }] = (await queryRows<{ n: number }>(
      world.ctx.app.db,
      sql`select count(*)::int as n from pant_vouchers where session_id = ${visit}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it("is taken once: again in the same cart, or in another store, it is refused in Swedish", async () => {
    const { who, visit } = await inStore();
    const code = await voucher(5);
    expect((await add(who, visit, code)).statusCode).toBe(200);
    const again = await add(who, visit, code);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "voucher_in_cart", detail: "Pantkvittot finns redan i din kundvagn." });
    const other = await inStore(world.malmo);
    const used = await add(other.who, other.visit, code);
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({ code: "voucher_used", detail: "Pantkvittot har redan använts." });
  });

  it("sent again with its scan_id (an answer that got lost) answers as the first did", async () => {
    const { who, visit } = await inStore();
    const code = await voucher(3);
    const scanId = randomUUID();
    expect((await add(who, visit, code, scanId)).statusCode).toBe(200);
    const retry = await add(who, visit, code, scanId);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().vouchers).toEqual([{ code, amount: 3 }]);
  });

  it("scanned in two visits at once goes to one of them", async () => {
    const [a, b] = [await inStore(world.lund), await inStore(world.malmo)];
    const code = await voucher(7);
    const answers = await Promise.all([add(a.who, a.visit, code), add(b.who, b.visit, code)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it("taken out is free for another visit; one not in the cart is 404", async () => {
    const { who, visit } = await inStore();
    const code = await voucher(4);
    await add(who, visit, code);
    const out = await who.call({ method: "DELETE", url: `/api/v1/cart/${visit}/vouchers/${code}` });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ vouchers: [], to_pay: 0 });
    const missing = await who.call({ method: "DELETE", url: `/api/v1/cart/${visit}/vouchers/${code}` });
    expect(missing.statusCode).toBe(404);
    const other = await inStore(world.malmo);
    expect((await add(other.who, other.visit, code)).statusCode).toBe(200);
  });
});

describe("paying with a voucher", () => {
  const checkout = (who: TestShopper) =>
    who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });

  it("charges the card the total less the voucher; the kvitto keeps its total and VAT and names the voucher", async () => {
    const { who, visit } = await inStore();
    for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
    const code = await voucher(24);
    await add(who, visit, code);
    const paid = await checkout(who);
    expect(paid.statusCode, paid.body).toBe(200);
    const receipt = receiptSchema.parse(paid.json().receipt);
    expect(receipt).toMatchObject({ total: 149.7, vouchers: [{ code, amount: 24 }], paid_by_card: 125.7 });
    // 149,70 at 6 %: 8,473… → 8,47, as without a voucher.
    expect(receipt.vat).toEqual([{ rate: 0.06, amount: 8.47, net: 141.23, gross: 149.7 }]);
    const intents = await world.pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`);
    expect(intents.map((i) => i.amount)).toEqual([12570]);
    const detail = sessionDetailSchema.parse((await world.admin.get(`/api/v1/admin/sessions/${visit}`)).json());
    expect(detail.order).toMatchObject({ total: 149.7, vouchers: [{ code, amount: 24 }] });
  });

  it("refuses a voucher worth the whole cart or more: nothing is charged and the cart stays open", async () => {
    const { who, visit } = await inStore();
    await scan(who, visit, world.codes.juice);
    await add(who, visit, await voucher(20));
    const refused = await checkout(who);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("vouchers_cover_cart");
    expect(refused.json().detail).toBe(
      "Dina pantkvitton (20,00 kr) täcker hela köpet (19,90 kr), och pantkvitton betalas inte ut. Lägg till fler varor eller ta bort ett pantkvitto.",
    );
    expect(await world.pay.intentsFor(`${idempotencyKeyOf(visit, 1)}-authorize`)).toEqual([]);
    // One öre more in goods than the voucher is enough.
    await scan(who, visit, world.codes.juice);
    expect((await checkout(who)).json().receipt).toMatchObject({ total: 39.8, paid_by_card: 19.8 });
  });

  it("at the gate too: the code is refused, the phone hears why until the cart has more than the vouchers", async () => {
    const gate = (await createDeviceKey(world.ctx.app, world.lund, "exit_gate")).key;
    const { who, visit } = await inStore();
    await scan(who, visit, world.codes.juice);
    await add(who, visit, await voucher(20));
    const atGate = async () => {
      const token = (await who.call({ method: "GET", url: "/api/v1/exit/token" })).json().token;
      return world.ctx.app.inject({
        method: "POST",
        url: "/api/v1/exit/scan",
        headers: { authorization: `Device ${gate}` },
        payload: { token },
      });
    };
    const status = async () => (await who.call({ method: "GET", url: "/api/v1/exit/status" })).json();
    expect(await status()).toEqual({ state: "shopping", receipt: null });
    const refused = await atGate();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("vouchers_cover_cart");
    expect(await status()).toEqual({ state: "shopping", receipt: null, vouchers_cover_cart: true });
    await scan(who, visit, world.codes.juice);
    expect(await status()).toEqual({ state: "shopping", receipt: null });
    expect((await atGate()).json()).toMatchObject({ gate_opened: true, status: "paid" });
    expect(await status()).toMatchObject({ state: "paid", receipt: { total: 39.8, paid_by_card: 19.8 } });
  });

  it("an emptied cart after the refusal is no longer 'covered by vouchers': there is nothing left to cover", async () => {
    const gate = (await createDeviceKey(world.ctx.app, world.lund, "exit_gate")).key;
    const { who, visit } = await inStore();
    const line = (await scan(who, visit, world.codes.juice)).item.id;
    const code = await voucher(20);
    await add(who, visit, code);
    const token = (await who.call({ method: "GET", url: "/api/v1/exit/token" })).json().token;
    const refused = await world.ctx.app.inject({
      method: "POST",
      url: "/api/v1/exit/scan",
      headers: { authorization: `Device ${gate}` },
      payload: { token },
    });
    expect(refused.json().code).toBe("vouchers_cover_cart");
    await who.call({ method: "DELETE", url: `/api/v1/cart/${visit}/vouchers/${code}` });
    await who.call({ method: "DELETE", url: `/api/v1/cart/item/${line}` });
    // Nothing in the cart and no voucher: the card would pay 0, but no voucher covers anything.
    expect((await who.call({ method: "GET", url: "/api/v1/exit/status" })).json()).toEqual({
      state: "shopping",
      receipt: null,
    });
  });

  it("an empty cart ends its visit and gives the voucher back", async () => {
    const { who, visit } = await inStore();
    const code = await voucher(9);
    await add(who, visit, code);
    expect((await checkout(who)).json()).toMatchObject({ status: "empty" });
    const other = await inStore(world.malmo);
    expect((await add(other.who, other.visit, code)).statusCode).toBe(200);
    void visit;
  });

  it("a visit left unpaid and written off gives its voucher back", async () => {
    const { who, visit } = await inStore();
    await scan(who, visit, world.codes.butter);
    const code = await voucher(6);
    await add(who, visit, code);
    await world.ctx.app.db.execute(
      sql`update shopping_sessions set state = 'left_unpaid', abandoned_at = now() where id = ${visit}`,
    );
    const off = await world.admin.post(`/api/v1/admin/sessions/${visit}/write-off`, { reason: "Försvann" });
    expect(off.statusCode, off.body).toBe(200);
    const other = await inStore(world.malmo);
    expect((await add(other.who, other.visit, code)).statusCode).toBe(200);
  });

  it("an empty visit the sweep closes gives its voucher back", async () => {
    const { who, visit } = await inStore();
    const code = await voucher(8);
    await add(who, visit, code);
    await world.ctx.app.db.execute(
      sql`update shopping_sessions set last_activity_at = now() - interval '2 days' where id = ${visit}`,
    );
    expect(await sweepAbandoned(world.ctx.app)).toContainEqual(expect.objectContaining({ session_id: visit }));
    const other = await inStore(world.malmo);
    expect((await add(other.who, other.visit, code)).statusCode).toBe(200);
  });

  it("a refund gives the card back no more than it paid", async () => {
    const { who, visit } = await inStore();
    for (let i = 0; i < 3; i++) await scan(who, visit, world.codes.butter);
    await add(who, visit, await voucher(24));
    const receipt = receiptSchema.parse((await checkout(who)).json().receipt);
    const url = `/api/v1/admin/orders/${receipt.id}/refunds`;
    const ask = (body: object) => world.admin.post(url, { idempotency_key: randomUUID(), reason: "Trasig", ...body });
    const lineId = orderRefundsSchema.parse((await world.admin.get(url)).json()).lines[0]!.id;
    // Two of three: 99,80 of what the card paid.
    expect((await ask({ lines: [{ line_id: lineId, quantity: 2 }] })).json().amount).toBe(99.8);
    // The last one is worth 49,90, but only 25,90 of the card's 125,70 is left.
    const last = await ask({ whole: true });
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json().amount).toBe(25.9);
    const nothing = await ask({ whole: true });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().detail).toBe(
      "Only 0.00 kr is left to refund on this order (24.00 kr was paid with pant vouchers, which are not paid out)",
    );
    void visit;
  });
});
