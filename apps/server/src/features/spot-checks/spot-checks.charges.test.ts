import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import {
  admin,
  checkOf,
  cookie,
  ctx,
  decide,
  flaggedVisit,
  orderOf,
  pay,
  soap,
  useSpotChecksApp,
} from "../../test/spot-checks.fixtures.ts";

/** The extra charge for items added at a spot check, and spot checks on a server without a payment provider. */
useSpotChecksApp();

describe("the extra charge for items added at a spot check", () => {
  const addBody = (productId: string, quantity = 1) => ({
    idempotency_key: randomUUID(),
    outcome: "items_added",
    items_added: [{ product_id: productId, quantity }],
  });
  const put = (id: string, body: unknown) => admin.put(`/api/v1/admin/spot-checks/${id}/outcome`, body);

  it("charges the saved card, described as the store's check, with the order and the check in its metadata", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    const intents = await pay.control<{ data: Array<{ id: string; amount: number; metadata: unknown }> }>(
      `/payment_intents?idempotency_key=${encodeURIComponent(`spotcheck-${check.id}-authorize`)}`,
    );
    expect(intents.data).toEqual([
      expect.objectContaining({ amount: 2400, metadata: { order_id: check.order_id, spot_check_id: check.id } }),
    ]);
    const intent = await fetch(`${pay.apiBase}/v1/payment_intents/${intents.data[0]!.id}`, {
      headers: { authorization: `Bearer ${pay.simulator.secretKey}` },
    });
    expect(await intent.json()).toMatchObject({
      currency: "sek",
      description: "Kollbutiken, kontroll vid utgången",
      amount_received: 2400,
    });
  });

  it("raises the order's VAT by exactly the added lines' VAT, per rate, and its total by the charge", async () => {
    // Two soaps (25 %, 24.50 kr each) at checkout: 49 kr, of which 9.80 kr VAT.
    const { check, who } = await flaggedVisit(2);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 4900, vat_ore: 980 });
    const bread = await product(ctx.app, cookie, 11.2, 12); // 1.20 kr VAT
    const cheese = await product(ctx.app, cookie, 25, 25); // 5 kr VAT each
    const res = await decide(check.id, {
      outcome: "items_added",
      items_added: [
        { product_id: bread.id, quantity: 1 },
        { product_id: cheese.id, quantity: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 61.2, state: "paid", failure_code: null });
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 4900 + 6120, vat_ore: 980 + 120 + 1000 });
    // The receipt's VAT per rate adds up to what the order keeps.
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.total).toBe(110.2);
    expect(receipt.vat).toEqual([
      expect.objectContaining({ rate: 0.25, amount: 19.8 }),
      expect.objectContaining({ rate: 0.12, amount: 1.2 }),
    ]);
  });

  it("a free item: recorded as paid, nothing charged at the provider, and on the receipt", async () => {
    const { check, who } = await flaggedVisit(1);
    const bag = await product(ctx.app, cookie, 0);
    const body = {
      idempotency_key: randomUUID(),
      outcome: "items_added",
      items_added: [{ product_id: bag.id, quantity: 1 }],
    };
    const res = await decide(check.id, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 0, state: "paid", failure_code: null });
    expect(res.json().lines.map((l: { name: string; origin: string }) => [l.name, l.origin])).toEqual([
      [soap.name, "cart"],
      [bag.name, "spot_check"],
    ]);
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
    expect(await orderOf(check.order_id!)).toMatchObject({ total_ore: 2450 });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.items.map((i: { name: string }) => i.name)).toEqual([soap.name, bag.name]);
    // The same request again adds nothing more.
    const again = await decide(check.id, body);
    expect(again.statusCode).toBe(200);
    expect(again.json().lines).toHaveLength(2);
  });

  it("a shopper who removed their card: declined as no_payment_method, the order as it was", async () => {
    const { check, who } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const removed = await who.call({ method: "DELETE", url: "/api/v1/payment-method" });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      outcome: "items_added",
      charge: { amount: 12, state: "declined", failure_code: "no_payment_method" },
    });
    expect(res.json().lines).toHaveLength(1);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450, vat_ore: 490 });
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
  });

  it("an order whose shopper is gone: declined as no_payment_method", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    await ctx.app.db.execute(sql`update orders set customer_id = null where id = ${check.order_id}`);
    const res = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge).toEqual({ amount: 12, state: "declined", failure_code: "no_payment_method" });
  });

  it("an unknown product: 404 unknown_product, nothing decided, and the check can still be decided", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const missing = randomUUID();
    const res = await decide(check.id, {
      outcome: "items_added",
      items_added: [
        { product_id: gum.id, quantity: 1 },
        { product_id: missing, quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "unknown_product", detail: `Unknown product ${missing}` });
    expect(await checkOf(check.id)).toMatchObject({ outcome: null, charge: null });
    expect(await pay.intentsFor(`spotcheck-${check.id}-authorize`)).toEqual([]);
    const ok = await decide(check.id, { outcome: "items_added", items_added: [{ product_id: gum.id, quantity: 1 }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().charge).toMatchObject({ amount: 12, state: "paid" });
  });

  it("a provider that does not answer: the charge stays pending, and the same request again finishes it once", async () => {
    const { check, who } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const body = addBody(gum.id, 2);
    await pay.control("/faults", { mode: "drop", path: "/v1/payment_intents" });
    let first: Awaited<ReturnType<typeof put>>;
    try {
      first = await put(check.id, body);
    } finally {
      await pay.control("/faults", {});
    }
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      outcome: "items_added",
      charge: { amount: 24, state: "pending", failure_code: null },
    });
    expect(first.json().lines).toHaveLength(1);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450, vat_ore: 490 });

    const again = await put(check.id, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().charge).toEqual({ amount: 24, state: "paid", failure_code: null });
    expect(again.json().lines.map((l: { origin: string }) => l.origin)).toEqual(["cart", "spot_check"]);
    expect(await orderOf(check.order_id!)).toEqual({ total_ore: 2450 + 2400, vat_ore: 490 + 257 });
    // Once paid, a third identical request is answered from the record: the provider is not asked again.
    expect((await put(check.id, body)).json()).toEqual(again.json());
    expect(await pay.control(`/idempotency?key=spotcheck-${check.id}-authorize`)).toMatchObject({
      executions: 1,
      replays: 0,
    });
    const receipt = (await who.call({ method: "GET", url: `/api/v1/receipts/${check.order_id}` })).json();
    expect(receipt.total).toBe(48.5);
  });

  it("a pending charge finished by two identical requests at once adds the items once", async () => {
    const { check } = await flaggedVisit(1);
    const gum = await product(ctx.app, cookie, 12, 12);
    const body = addBody(gum.id, 1);
    await pay.control("/faults", { mode: "drop", path: "/v1/payment_intents" });
    try {
      expect((await put(check.id, body)).json().charge.state).toBe("pending");
    } finally {
      await pay.control("/faults", {});
    }
    const answers = await Promise.all([put(check.id, body), put(check.id, body), put(check.id, body)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const after = await checkOf(check.id);
    expect(after.charge).toMatchObject({ state: "paid" });
    expect(after.lines.map((l) => l.origin)).toEqual(["cart", "spot_check"]);
    expect((await orderOf(check.order_id!)).total_ore).toBe(2450 + 1200);
  });
});

describe("spot checks on a server without a payment provider", () => {
  let bare: TestContext;
  let bareAdmin: ReturnType<typeof as>;
  let bareStore: string;
  let item: Awaited<ReturnType<typeof product>>;

  beforeAll(async () => {
    bare = await createTestContext();
    const bareCookie = (await signIn(bare.app)).cookie;
    bareAdmin = as(bare.app, bareCookie);
    bareStore = (await bareAdmin.post("/api/v1/stores/", { name: "Utan kort" })).json().id;
    item = await product(bare.app, bareCookie, 10);
  });
  afterAll(async () => {
    await bare?.close();
  });

  /** A paid order (made directly: nothing can be charged here) and its pending check. */
  async function pendingCheck() {
    const [order] = await queryRows<{ id: string }>(
      bare.app.db,
      sql`insert into orders (store_id, state, total_ore, vat_ore, store_name, receipt_number, paid_at, payment_intent_id)
          values (${bareStore}, 'paid', 1000, 200, 'Utan kort', (select coalesce(max(receipt_number), 0) + 1 from orders),
                  now(), ${`pi_${randomUUID()}`}) returning id`,
    );
    const [check] = await queryRows<{ id: string }>(
      bare.app.db,
      sql`insert into spot_checks (order_id, store_id) values (${order!.id}, ${bareStore}) returning id`,
    );
    return check!.id;
  }
  const decideHere = (id: string, body: Record<string, unknown>) =>
    bareAdmin.put(`/api/v1/admin/spot-checks/${id}/outcome`, { idempotency_key: randomUUID(), ...body });
  const outcomeOf = async (id: string) =>
    (
      await queryRows<{ outcome: string | null }>(bare.app.db, sql`select outcome from spot_checks where id = ${id}`)
    )[0]!.outcome;

  it("records an ok, which moves no money", async () => {
    const id = await pendingCheck();
    const ok = await decideHere(id, { outcome: "ok" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ outcome: "ok", charge: null });
  });

  it("refuses items added or removed with 503, leaving the check pending", async () => {
    const id = await pendingCheck();
    const added = await decideHere(id, { outcome: "items_added", items_added: [{ product_id: item.id, quantity: 1 }] });
    expect(added.statusCode, added.body).toBe(503);
    expect(added.json().code).toBe("payments_not_configured");
    const removed = await decideHere(id, {
      outcome: "items_removed",
      items_removed: [{ line_id: randomUUID(), quantity: 1 }],
    });
    expect(removed.statusCode, removed.body).toBe(503);
    expect(await outcomeOf(id)).toBeNull();
    // Still free for a decision that needs no provider.
    expect((await decideHere(id, { outcome: "ok" })).statusCode).toBe(200);
  });

  it("says a decided check was decided, whatever the new decision would need", async () => {
    const id = await pendingCheck();
    expect((await decideHere(id, { outcome: "ok" })).statusCode).toBe(200);
    const later = await decideHere(id, { outcome: "items_added", items_added: [{ product_id: item.id, quantity: 1 }] });
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({
      code: "spot_check_decided",
      detail: "This spot check was already decided (ok)",
    });
  });
});
