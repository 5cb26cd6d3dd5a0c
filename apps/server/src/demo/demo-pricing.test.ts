import { randomUUID } from "node:crypto";
import { cartSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../db/client.ts";
import { shopper } from "../test/factories.ts";
import { createTestContext } from "../test/harness.ts";
import { campaignOre, DEMO_OFFERS, markedUpOre, seedDemoPricing } from "./demo-pricing.ts";
import { demoProducts, seedDemoProducts } from "./demo-products.ts";

describe("the demo's campaigns and store prices", () => {
  it("take about a fifth off to a price ending in 90 öre, always below the ordinary price", () => {
    expect(campaignOre(6490)).toBe(5090);
    // 0.8 × 12.90 = 10.32: down to 9.90, not 10.90 (above 80 %) nor 10.32.
    expect(campaignOre(1290)).toBe(990);
    expect(campaignOre(1100)).toBe(790);
    expect(campaignOre(100)).toBe(90);
    for (const ore of [100, 990, 1290, 2490, 6490, 12_900]) {
      expect(campaignOre(ore)).toBeLessThan(ore);
      expect(campaignOre(ore) % 100).toBe(90);
    }
  });

  it("mark the kiosk's prices up to the next price ending in 90 öre, never below the factor", () => {
    expect(markedUpOre(1290, 1.15)).toBe(1490);
    // 14.90 × 1.15 = 17.135: 17.90.
    expect(markedUpOre(1490, 1.15)).toBe(1790);
    // Exactly on a price ending in 90: kept.
    expect(markedUpOre(1000, 1.09)).toBe(1090);
  });

  it("are seeded as this week's campaigns, one of them a store's own, and the kiosk's dearer prices", async () => {
    const ctx = await createTestContext();
    try {
      const shelf = demoProducts().map((p) => ({ ...p, id: randomUUID() }));
      const [a, b] = [randomUUID(), randomUUID()];
      await ctx.app.db.execute(sql`insert into stores (id, name) values (${a}, 'A'), (${b}, 'Kiosk')`);
      const now = new Date("2026-11-27T12:00:00Z");
      await ctx.app.db.transaction(async (tx) => {
        await seedDemoProducts(tx, shelf);
        await seedDemoPricing(tx, { shelf, campaignStoreId: a, kioskStoreId: b, now });
      });
      const campaigns = await queryRows<{ name: string; store_id: string | null; below: boolean; days: string }>(
        ctx.app.db,
        sql`select p.name, c.store_id, c.price_ore < p.price_ore as below, c.starts_on || '…' || c.ends_on as days
            from campaigns c join products p on p.id = c.product_id order by p.name`,
      );
      expect(campaigns.map((c) => [c.name.split(" ")[0], c.store_id, c.below, c.days])).toEqual([
        ["Bregott", null, true, "2026-11-24…2026-12-07"],
        ["Falukorv", null, true, "2026-11-24…2026-12-07"],
        ["Kaffe", null, true, "2026-11-24…2026-12-07"],
        ["Kanelbullar", a, true, "2026-11-24…2026-12-07"],
        ["Kexchoklad", null, true, "2026-11-24…2026-12-07"],
        ["Läsk", null, true, "2026-11-24…2026-12-07"],
      ]);
      const [kiosk] = await queryRows<{ n: number; dearer: boolean }>(
        ctx.app.db,
        sql`select count(*)::int as n, bool_and(s.price_ore > p.price_ore) as dearer
            from store_prices s join products p on p.id = s.product_id where s.store_id = ${b}`,
      );
      expect(kiosk).toEqual({ n: 5, dearer: true });
      // The week's multi-buy offers, in every store and running on the demo's day, on no product on campaign.
      const offers = await queryRows<{
        label: string;
        kind: string;
        store_id: string | null;
        active: boolean;
        products: string[];
        on_campaign: boolean;
      }>(
        ctx.app.db,
        sql`select o.label, o.kind, o.store_id, '2026-11-27'::date between o.starts_on and o.ends_on as active,
              (select json_agg(p.name order by p.name) from offer_products op join products p on p.id = op.product_id
               where op.offer_id = o.id) as products,
              exists (select 1 from offer_products op join campaigns c on c.product_id = op.product_id
                      where op.offer_id = o.id) as on_campaign
            from offers o order by o.label`,
      );
      expect(offers).toEqual([
        {
          label: "2 för 50 kr OLW",
          kind: "amount",
          store_id: null,
          active: true,
          products: ["Chips Grillchips 175 g", "Chips Sourcream & Onion 175 g", "Ostbågar 200 g"],
          on_campaign: false,
        },
        {
          label: "3 för 2 Krossade tomater",
          kind: "one_free",
          store_id: null,
          active: true,
          products: ["Krossade tomater 400 g"],
          on_campaign: false,
        },
      ]);
      // A fixed price is an offer only below what two of its cheapest product cost.
      const [cheapest] = await queryRows<{ ore: number }>(
        ctx.app.db,
        sql`select min(p.price_ore)::int as ore from offers o join offer_products op on op.offer_id = o.id
            join products p on p.id = op.product_id where o.kind = 'amount'`,
      );
      expect(DEMO_OFFERS[1].amountOre).toBeLessThan(2 * cheapest!.ore);
    } finally {
      await ctx.close();
    }
  });

  it("give a cart of three tins of tomatoes one free, and two bags of OLW for 50 kr, through the cart API", async () => {
    const ctx = await createTestContext();
    try {
      const shelf = demoProducts().map((p) => ({ ...p, id: randomUUID() }));
      const [store, kiosk] = [randomUUID(), randomUUID()];
      await ctx.app.db.execute(sql`insert into stores (id, name) values (${store}, 'A'), (${kiosk}, 'Kiosk')`);
      await ctx.app.db.transaction(async (tx) => {
        await seedDemoProducts(tx, shelf);
        await seedDemoPricing(tx, { shelf, campaignStoreId: store, kioskStoreId: kiosk, now: new Date() });
      });
      const barcode = (name: string) => shelf.find((p) => p.name === name)!.barcode;
      const who = await shopper(ctx.app, { card: null });
      const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
      expect(entry.statusCode, entry.body).toBe(200);
      const sessionId = entry.json().session_id as string;
      await ctx.app.db.execute(
        sql`update shopping_sessions set door_opened_at = now(), entry_used_at = now(), state = 'in_store'
            where id = ${sessionId}`,
      );
      const scan = async (name: string) => {
        const res = await who.call({
          method: "POST",
          url: "/api/v1/cart/scan",
          payload: { session_id: sessionId, barcode: barcode(name) },
        });
        expect(res.statusCode, res.body).toBe(200);
      };
      const cart = async () => {
        const res = await who.call({ method: "GET", url: `/api/v1/cart/${sessionId}` });
        expect(res.statusCode, res.body).toBe(200);
        return cartSchema.parse(res.json());
      };

      // Two tins are no offer yet; the third is free.
      await scan("Krossade tomater 400 g");
      await scan("Krossade tomater 400 g");
      expect(await cart()).toMatchObject({ discounts: [], total: 37.8 });
      await scan("Krossade tomater 400 g");
      expect(await cart()).toMatchObject({
        discounts: [{ label: "3 för 2 Krossade tomater", times: 1, amount: 18.9 }],
        total: 37.8,
      });
      // One bag alone is its price; two of the three kinds mixed are 50 kr (29.90 + 27.90 − 7.80).
      await scan("Chips Sourcream & Onion 175 g");
      expect((await cart()).discounts.map((d) => d.label)).toEqual(["3 för 2 Krossade tomater"]);
      await scan("Ostbågar 200 g");
      const both = await cart();
      expect(both.discounts).toHaveLength(2);
      expect(both.discounts.find((d) => d.label === "2 för 50 kr OLW")).toMatchObject({ times: 1, amount: 7.8 });
      expect(both.total).toBe(37.8 + 50);
    } finally {
      await ctx.close();
    }
  });
});
