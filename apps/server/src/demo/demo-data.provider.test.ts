import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap.ts";
import { queryRows, sql } from "../db/client.ts";
import { as, createTestContext, signIn } from "../test/harness.ts";
import { startPaymentHarness } from "../test/payments.ts";

describe("the demo's seed and the payment provider", () => {
  it("without a provider stays as it was: the ids are made up, none is asked for, and refunds wait for one", async () => {
    const bare = await createTestContext({ DEMO_DATA: "true" });
    try {
      expect(await bootstrap(bare.app)).not.toBeNull();
      const [made] = await queryRows<{ orders: number; made_up: number; brands: string[] }>(
        bare.app.db,
        sql`select count(*)::int as orders, count(*) filter (where o.payment_intent_id ~ '^pi_[A-Za-z0-9]{24}$')::int as made_up,
              array_agg(distinct c.card_brand order by c.card_brand) as brands
            from orders o join customers c on c.id = o.customer_id`,
      );
      expect(made!.orders).toBeGreaterThan(1000);
      expect(made!.made_up).toBe(made!.orders);
      expect(made!.brands).toEqual(["amex", "mastercard", "visa"]);
      const [order] = await queryRows<{ id: string }>(bare.app.db, sql`select id from orders limit 1`);
      const staff = as(bare.app, (await signIn(bare.app)).cookie);
      const refund = await staff.post(`/api/v1/admin/orders/${order!.id}/refunds`, {
        idempotency_key: randomUUID(),
        reason: "Damaged packaging",
        whole: true,
      });
      expect([refund.statusCode, refund.json().code]).toEqual([503, "payments_not_configured"]);
    } finally {
      await bare.close();
    }
  });

  it("with a provider that does not answer writes nothing, and the next start seeds it all", async () => {
    const failing = await startPaymentHarness();
    const next = await createTestContext({
      DEMO_DATA: "true",
      STRIPE_SECRET_KEY: failing.simulator.secretKey,
      STRIPE_API_BASE: failing.apiBase,
    });
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          next.app.db,
          sql`select (select count(*) from stores) + (select count(*) from products)
        + (select count(*) from customers) + (select count(*) from orders) + (select count(*) from admin_users) as n`,
        )
      )[0]!.n;
    try {
      // The shoppers' customers and cards are made, then every payment fails: the seed stops half-way through.
      await failing.control("/faults", { mode: "error", path: "/v1/payment_intents" });
      await expect(bootstrap(next.app)).rejects.toThrow(/payment provider refused the payment of order/);
      expect(Number(await count())).toBe(0);
      await failing.control("/faults", {});
      expect(await bootstrap(next.app)).not.toBeNull();
      const [paid] = await queryRows<{ n: number }>(next.app.db, sql`select count(*)::int as n from orders`);
      const there = await failing.control<{ count: number }>("/payment_intents");
      expect(there.count).toBeGreaterThanOrEqual(paid!.n);
    } finally {
      await next.close();
      await failing.close();
    }
  });
});
