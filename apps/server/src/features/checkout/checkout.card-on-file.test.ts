import { randomUUID } from "node:crypto";
import { errorSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import type { TestShopper } from "../../test/factories.ts";
import * as paymentMethod from "../payments/payment-method.service.ts";
import {
  closeCheckoutRouteTests,
  ctx,
  expectRefusal,
  openCheckoutRouteTests,
  pay,
  saveCard,
  shopper,
  visa,
} from "./checkout.routes.fixtures.ts";

beforeAll(openCheckoutRouteTests);
afterEach(() => pay.control("/faults", {}));
afterAll(closeCheckoutRouteTests);

const cardOf = async (who: TestShopper) => (await who.call({ method: "GET", url: "/api/v1/payment-method" })).json();
const removeCard = (who: TestShopper) => who.call({ method: "DELETE", url: "/api/v1/payment-method" });

/** The provider's customer and card as the shopper's row keeps them. */
async function kept(who: TestShopper) {
  const [row] = await queryRows<{ payment_customer_id: string | null; payment_method_id: string | null }>(
    ctx.app.db,
    sql`select payment_customer_id, payment_method_id from customers where id = ${who.id}`,
  );
  return row!;
}

/** The cards the simulator holds on a customer. */
const heldBy = (customerId: string | null) =>
  [...pay.simulator.store.paymentMethods.values()].filter((pm) => pm.customer === customerId).map((pm) => pm.id);

const notSavedNow = "Kortet kunde inte sparas just nu. Försök igen om en stund.";

describe("the card on file", () => {
  it("is saved from the card page's id, shown as brand and last four, replaced, and removed", async () => {
    const sam = await shopper();
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
    const visa = await saveCard(sam, "pm_card_visa");
    expect(visa.statusCode, visa.body).toBe(200);
    expect(visa.json()).toEqual({ card: { brand: "visa", last4: "4242" } });
    const master = await saveCard(sam, "pm_card_mastercard");
    expect(master.json()).toEqual({ card: { brand: "mastercard", last4: "4444" } });
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({
      card: { brand: "mastercard", last4: "4444" },
    });
    // One provider customer for the shopper, whatever the number of cards.
    const [row] = await queryRows<{ payment_customer_id: string }>(
      ctx.app.db,
      sql`select payment_customer_id from customers where id = ${sam.id}`,
    );
    const found = await pay.control<{ count: number }>(`/customers?metadata[shopper_id]=${sam.id}`);
    expect(found.count).toBe(1);
    expect(row?.payment_customer_id).toMatch(/^cus_/);

    expect((await sam.call({ method: "DELETE", url: "/api/v1/payment-method" })).statusCode).toBe(204);
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
    // Removing again is no error.
    expect((await sam.call({ method: "DELETE", url: "/api/v1/payment-method" })).statusCode).toBe(204);
  });

  it("refuses an id the provider does not know (422) and one that is not an id at all", async () => {
    const sam = await shopper();
    const unknown = await saveCard(sam, "pm_nothing_like_this");
    expect(unknown.statusCode).toBe(422);
    expect(errorSchema.parse(unknown.json()).code).toBe("invalid_payment_method");
    const malformed = await saveCard(sam, "4242 4242 4242 4242");
    expect(malformed.statusCode).toBe(422);
    expect((await sam.call({ method: "GET", url: "/api/v1/payment-method" })).json()).toEqual({ card: null });
  });

  it.each([
    [
      "a card the bank declines as it is saved",
      "pm_card_chargeDeclinedExpiredCard",
      402,
      "card_declined",
      "Kortet godkändes inte av banken. Prova ett annat kort.",
    ],
    [
      "a card the bank wants confirmed every time",
      "pm_card_authenticationRequired",
      402,
      "card_requires_action",
      "Kortet måste bekräftas hos banken varje gång och kan inte användas för automatisk betalning. Prova ett annat kort.",
    ],
    [
      "an id the provider rejects",
      "pm_nothing_like_this",
      422,
      "invalid_payment_method",
      "Kortet kunde inte sparas. Lägg till det igen på kortsidan.",
    ],
  ])("refuses %s, in Swedish, and keeps the earlier card", async (_, card, status, code, detail) => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    expectRefusal(await saveCard(sam, card), status, code, detail);
    expect(await cardOf(sam)).toEqual(visa);
    expect(await kept(sam)).toEqual(before);
    expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);
  });

  it("keeps one provider customer, where a second card takes the first one's place; removing it leaves none there", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const first = await kept(sam);
    expect(heldBy(first.payment_customer_id)).toEqual([first.payment_method_id]);
    expect((await saveCard(sam, "pm_card_mastercard")).statusCode).toBe(200);
    const second = await kept(sam);
    expect(second.payment_customer_id).toBe(first.payment_customer_id);
    expect(heldBy(first.payment_customer_id)).toEqual([second.payment_method_id]);
    expect(second.payment_method_id).not.toBe(first.payment_method_id);

    expect((await removeCard(sam)).statusCode).toBe(204);
    expect(heldBy(first.payment_customer_id)).toEqual([]);
    // The customer stays for the next card.
    expect(await kept(sam)).toEqual({ payment_customer_id: first.payment_customer_id, payment_method_id: null });
  });

  it("saves on a new provider customer when the provider no longer has the shopper's", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const gone = (await kept(sam)).payment_customer_id!;
    // Deleted at the provider, say from its dashboard.
    const deleted = await fetch(`${pay.apiBase}/v1/customers/${gone}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${pay.simulator.secretKey}` },
    });
    expect(deleted.status).toBe(200);
    // Its cards went with it: there is nothing to take the place of.

    const master = await saveCard(sam, "pm_card_mastercard");
    expect(master.statusCode, master.body).toBe(200);
    expect(await cardOf(sam)).toEqual({ card: { brand: "mastercard", last4: "4444" } });
    const now = await kept(sam);
    const found = await pay.control<{ data: Array<{ id: string }> }>(`/customers?metadata[shopper_id]=${sam.id}`);
    expect(found.data.map((c) => c.id)).toEqual([now.payment_customer_id]);
    expect(now.payment_customer_id).not.toBe(gone);
    expect(heldBy(now.payment_customer_id)).toEqual([now.payment_method_id]);
  });

  it("answers 503 when the provider does not answer as the shopper's customer is made; the next try saves", async () => {
    const sam = await shopper();
    await pay.control("/faults", { mode: "drop", path: "/v1/customers" });
    expectRefusal(await saveCard(sam, "pm_card_visa"), 503, "payment_unavailable", notSavedNow);
    expect(await cardOf(sam)).toEqual({ card: null });
    expect(await kept(sam)).toEqual({ payment_customer_id: null, payment_method_id: null });

    await pay.control("/faults", {});
    expect((await saveCard(sam, "pm_card_visa")).json()).toEqual(visa);
  });

  it("answers 503 when the provider fails as the card is saved, and keeps the earlier card", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    for (const path of ["/v1/customers", "/v1/setup_intents"]) {
      await pay.control("/faults", { mode: "error", path });
      expectRefusal(await saveCard(sam, "pm_card_mastercard"), 503, "payment_unavailable", notSavedNow);
      expect(await cardOf(sam)).toEqual(visa);
      expect(await kept(sam)).toEqual(before);
      expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);
    }
  });

  it("keeps the card when the provider fails to remove it; the next try removes it", async () => {
    const sam = await shopper();
    await saveCard(sam, "pm_card_visa");
    const before = await kept(sam);
    await pay.control("/faults", { mode: "error", path: "/v1/payment_methods" });
    // The words say what could not be done: removed, not saved.
    expectRefusal(
      await removeCard(sam),
      503,
      "payment_unavailable",
      "Kortet kunde inte tas bort just nu. Försök igen om en stund.",
    );
    expect(await cardOf(sam)).toEqual(visa);
    expect(heldBy(before.payment_customer_id)).toEqual([before.payment_method_id]);

    await pay.control("/faults", {});
    expect((await removeCard(sam)).statusCode).toBe(204);
    expect(await cardOf(sam)).toEqual({ card: null });
    expect(heldBy(before.payment_customer_id)).toEqual([]);
  });

  it("removing with no card on file asks nothing of the provider", async () => {
    const never = await shopper();
    const before = await shopper();
    await saveCard(before, "pm_card_visa");
    expect((await removeCard(before)).statusCode).toBe(204);
    // The provider is away: only a call to it could fail.
    await pay.control("/faults", { mode: "error" });
    for (const who of [never, before]) {
      expect((await removeCard(who)).statusCode).toBe(204);
      expect(await cardOf(who)).toEqual({ card: null });
    }
  });

  it("is shown only while its id, brand and last four are all on file", async () => {
    const sam = await shopper();
    for (const column of ["payment_method_id", "card_brand", "card_last4"]) {
      await saveCard(sam, "pm_card_visa");
      expect(await cardOf(sam)).toEqual(visa);
      await ctx.app.db.execute(sql`update customers set ${sql.identifier(column)} = null where id = ${sam.id}`);
      expect(await cardOf(sam), column).toEqual({ card: null });
    }
  });

  it("answers 404 in Swedish for an account deleted after its token was checked", async () => {
    // The token check refuses a deleted account (401); this is the moment between that check and the read.
    const gone = randomUUID();
    const payments = ctx.app.payments!;
    for (const call of [
      () => paymentMethod.readCard(ctx.app.db, gone),
      () => paymentMethod.saveCard(ctx.app.db, payments, gone, "pm_card_visa"),
      () => paymentMethod.removeCard(ctx.app.db, payments, gone),
    ])
      await expect(call()).rejects.toMatchObject({
        status: 404,
        code: "unknown_customer",
        message: "Kunden finns inte.",
      });
  });
});
