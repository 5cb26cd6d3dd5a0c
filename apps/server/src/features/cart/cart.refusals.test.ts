import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putVisitIn } from "../../test/harness.ts";
import { checkAgeLimit } from "./age-limit.ts";

import {
  admin,
  cartOf,
  ctx,
  eventsOf,
  item,
  openCartTests,
  plainStore,
  products,
  type Shopper,
  scan,
  shopperBorn,
  store,
  visit,
} from "./cart.fixtures.ts";

beforeAll(openCartTests);
afterAll(() => ctx.close());

describe("age-limited goods", () => {
  it("sells to a shopper of age in a store with age verification, and refuses one under it, in Swedish", async () => {
    const adult = await shopperBorn("1990-05-05");
    expect((await scan(adult, await visit(adult), products.snus!.barcode)).statusCode).toBe(200);
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const res = await scan(teen, await visit(teen), products.snus!.barcode);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "under_age", detail: "Du måste vara minst 18 år för att köpa Snus." });
  });

  it("refuses age-limited goods in a store without the age_verification module, even to adults", async () => {
    const adult = await shopperBorn("1970-01-01");
    const res = await scan(adult, await visit(adult, plainStore), products.snus!.barcode);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("age_limited_not_sold");
    expect((await scan(adult, await visit(adult, plainStore), products.milk!.barcode)).statusCode).toBe(200);
  });

  it("counts the birthday itself as of age, on the store's calendar day", () => {
    const session = { age_verification: true, timezone: "Europe/Stockholm" };
    const snus = { name: "Snus", age_limit: 18 };
    // 23:30 UTC on 14 March is already 15 March in Stockholm.
    const now = new Date("2026-03-14T23:30:00Z");
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-15" }, snus, now)).not.toThrow();
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-16" }, snus, now)).toThrow(/minst 18 år/);
    expect(() => checkAgeLimit({ ...session, birth_date: "2008-03-15", timezone: "UTC" }, snus, now)).toThrow(
      /minst 18 år/,
    );
    expect(() =>
      checkAgeLimit({ ...session, birth_date: "2000-01-01" }, { name: "Mjölk", age_limit: null }, now),
    ).not.toThrow();
  });
});

describe("every refusal in its own words", () => {
  it("names what is wrong with the visit, in the order a shopper would hear it", async () => {
    const kim = await shopperBorn("1990-05-05");
    const other = await shopperBorn("1990-05-05");
    const refusal = async (res: Awaited<ReturnType<typeof scan>>) => [
      res.statusCode,
      res.json().code,
      res.json().detail,
    ];
    expect(await refusal(await scan(kim, randomUUID(), products.milk!.barcode))).toEqual([
      404,
      "unknown_session",
      "Sessionen finns inte.",
    ]);
    const s = await visit(kim);
    expect(await refusal(await scan(other, s, products.milk!.barcode))).toEqual([
      403,
      "forbidden",
      "Det här är inte din session.",
    ]);
    await putVisitIn(ctx.app.db, s, "paid");
    expect(await refusal(await scan(kim, await visit(kim, store, false), products.milk!.barcode))).toEqual([
      409,
      "not_entered",
      "Du har inte gått in i butiken än. Visa QR-koden vid dörren först.",
    ]);
    const done = await visit(kim);
    await putVisitIn(ctx.app.db, done, "ended_empty");
    expect(await refusal(await scan(kim, done, products.milk!.barcode))).toEqual([
      409,
      "checked_out",
      "Besöket är avslutat. Starta ett nytt besök för att handla.",
    ]);
    const left = await visit(kim);
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', abandoned_at = now() where id = ${left}`,
    );
    expect(await refusal(await scan(kim, left, products.milk!.barcode))).toEqual([
      409,
      "visit_abandoned",
      "Besöket avslutades efter en stund utan aktivitet och debiteras inte.",
    ]);
    const owing = await shopperBorn("1990-05-05");
    const unpaid = await visit(owing);
    expect((await scan(owing, unpaid, products.milk!.barcode)).statusCode).toBe(200);
    await putVisitIn(ctx.app.db, unpaid, "left_unpaid");
    expect(await refusal(await scan(owing, unpaid, products.milk!.barcode))).toEqual([
      409,
      "visit_left_unpaid",
      "Besöket avslutades utan betalning. Betala det i appen eller kontakta butiken.",
    ]);
    const closing = (await admin.post("/api/v1/stores/", { name: "Stängd butik" })).json().id;
    const late = await visit(kim, closing);
    expect((await admin.put(`/api/v1/stores/${closing}`, { is_active: false })).statusCode).toBe(200);
    expect(await refusal(await scan(kim, late, products.milk!.barcode))).toEqual([
      409,
      "store_inactive",
      "Butiken är stängd just nu.",
    ]);
    // A code that is no barcode at all is heard only once the visit itself is fine.
    expect(await refusal(await scan(other, s, "12345"))).toEqual([403, "forbidden", "Det här är inte din session."]);
    expect(await refusal(await scan(kim, await visit(kim), "12345"))).toEqual([
      422,
      "invalid_barcode",
      "Streckkoden gick inte att läsa. Försök igen.",
    ]);
    for (const ended of [done, left, late]) expect((await cartOf(kim, ended)).items).toEqual([]);
  });

  it("answers reading another's cart, or none, and changing a line that is not there", async () => {
    const kim = await shopperBorn("1990-05-05");
    const other = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const read = (who: Shopper, id: string) =>
      ctx.app.inject({ method: "GET", url: `/api/v1/cart/${id}`, headers: { authorization: `Bearer ${who.token}` } });
    expect((await read(kim, randomUUID())).json()).toMatchObject({
      code: "unknown_session",
      detail: "Sessionen finns inte.",
    });
    const theirs = await read(other, s);
    expect([theirs.statusCode, theirs.json()]).toMatchObject([
      403,
      { code: "forbidden", detail: "Det här är inte din session." },
    ]);
    for (const res of [await item(kim, "PUT", randomUUID(), 2), await item(kim, "DELETE", randomUUID())]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "unknown_item", detail: "Varan finns inte i kundvagnen." });
    }
  });

  it("says why age-limited goods are not sold in a store without age verification", async () => {
    const adult = await shopperBorn("1970-01-01");
    const s = await visit(adult, plainStore);
    const res = await scan(adult, s, products.snus!.barcode);
    expect(res.json()).toMatchObject({
      code: "age_limited_not_sold",
      detail: "Snus har åldersgräns (18 år) och säljs inte i den här butiken.",
    });
    expect((await cartOf(adult, s)).items).toEqual([]);
  });

  it("adds nothing for an under-age shopper, not even for a moment", async () => {
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const s = await visit(teen);
    expect((await scan(teen, s, products.snus!.barcode)).json().code).toBe("under_age");
    expect((await cartOf(teen, s)).items).toEqual([]);
    expect(await eventsOf(s)).toEqual([]);
  });
});
