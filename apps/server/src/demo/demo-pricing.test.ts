import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { queryRows, sql } from "../db/client.ts";
import { createTestContext } from "../test/harness.ts";
import { campaignOre, markedUpOre, seedDemoPricing } from "./demo-pricing.ts";
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
    } finally {
      await ctx.close();
    }
  });
});
