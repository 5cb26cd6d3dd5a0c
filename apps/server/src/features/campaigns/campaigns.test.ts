import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  added,
  auditOf,
  body,
  campaignCount,
  day,
  listed,
  platform,
  platformEmail,
  product,
  productAt,
  storeA,
  URL,
  useCampaignsApp,
} from "./campaigns.fixtures.ts";

/**
 * Campaigns through the API: a campaign's life in the audit log, the rules a
 * body must keep (days, price, product, store, length) on both sides of each
 * boundary, and bad input. Who may do what: campaigns.access.test.ts; the
 * list and its statuses: campaigns.list.test.ts.
 */
useCampaignsApp();

const rule = async (res: Awaited<ReturnType<typeof platform.post>>, path: string, detail: string) => {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toMatchObject({ code: "validation_error", detail });
  expect(res.json().errors[0].path).toBe(path);
};

describe("a campaign's life", () => {
  it("is added, replaced and deleted, each step in the audit log with before and after", async () => {
    const created = await added();
    expect(created).toEqual({
      id: created.id,
      product_id: product.id,
      sku: product.sku,
      product_name: "Kaffe 500 g",
      ordinary_price: 25,
      store_id: storeA,
      store_name: "Kampanjbutiken",
      price: 19.9,
      starts_on: day(0),
      ends_on: day(6),
      members_only: false,
      status: "active",
    });

    const replacement = body({ store_id: null, price: 18, starts_on: day(10), ends_on: day(20) });
    const put = await platform.put(`${URL}/${created.id}`, replacement);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      id: created.id,
      store_id: null,
      store_name: null,
      price: 18,
      starts_on: day(10),
      ends_on: day(20),
      status: "upcoming",
    });

    const deleted = await platform.delete(`${URL}/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await listed()).items.map((c) => c.id)).not.toContain(created.id);
    expect((await platform.delete(`${URL}/${created.id}`)).statusCode).toBe(404);

    const audit = await auditOf(created.id);
    expect(audit.map((a) => [a.action, a.entity_type, a.actor_email, a.store_id])).toEqual([
      ["campaign.create", "campaign", platformEmail, storeA],
      ["campaign.update", "campaign", platformEmail, null],
      ["campaign.delete", "campaign", platformEmail, null],
    ]);
    expect(audit.map((a) => a.summary)).toEqual([
      `Campaign Kaffe 500 g (${product.sku}) at 19.90 kr in Kampanjbutiken from ${day(0)} to ${day(6)} created`,
      `Campaign "Kaffe 500 g (${product.sku}) at 19.90 kr in Kampanjbutiken from ${day(0)} to ${day(6)}" updated: store_id, store_name, price, starts_on, ends_on, status`,
      `Campaign Kaffe 500 g (${product.sku}) at 18.00 kr in every store from ${day(10)} to ${day(20)} deleted`,
    ]);
    expect(audit[0]).toMatchObject({ before: null, after: created });
    expect(audit[1]).toMatchObject({ before: created, after: put.json() });
    expect(audit[2]).toMatchObject({ before: put.json(), after: null });
  });

  it("records nothing for a replacement that changes nothing", async () => {
    const created = await added();
    const same = await platform.put(`${URL}/${created.id}`, body());
    expect(same.statusCode).toBe(200);
    expect((await auditOf(created.id)).map((a) => a.action)).toEqual(["campaign.create"]);
  });

  it("answers 404 with a detail for an id that names no campaign, malformed or unknown", async () => {
    for (const id of [randomUUID(), "not-an-id", "12"]) {
      for (const res of [await platform.put(`${URL}/${id}`, body()), await platform.delete(`${URL}/${id}`)]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().detail).toBe(`Campaign ${id} not found`);
      }
    }
  });
});

describe("the rules of a campaign", () => {
  it("runs from a day to the same day or later, never backwards", async () => {
    expect(await added({ starts_on: day(3), ends_on: day(3) })).toMatchObject({ starts_on: day(3), ends_on: day(3) });
    const before = await campaignCount();
    await rule(
      await platform.post(URL, body({ starts_on: day(3), ends_on: day(2) })),
      "ends_on",
      "ends_on: ends_on cannot be before starts_on",
    );
    const made = await added();
    await rule(
      await platform.put(`${URL}/${made.id}`, body({ starts_on: day(3), ends_on: day(2) })),
      "ends_on",
      "ends_on: ends_on cannot be before starts_on",
    );
    expect(await campaignCount()).toBe(before + 1);
  });

  it("runs 366 days at most, first and last day counted", async () => {
    expect(await added({ starts_on: day(1), ends_on: day(366) })).toMatchObject({ ends_on: day(366) });
    // Over a leap day too: 2028-02-29 is a day of its own.
    expect(await added({ starts_on: "2028-01-01", ends_on: "2028-12-31" })).toMatchObject({ ends_on: "2028-12-31" });
    const before = await campaignCount();
    await rule(
      await platform.post(URL, body({ starts_on: day(1), ends_on: day(367) })),
      "ends_on",
      "ends_on: A campaign may run at most 366 days",
    );
    await rule(
      await platform.post(URL, body({ starts_on: "2028-01-01", ends_on: "2029-01-01" })),
      "ends_on",
      "ends_on: A campaign may run at most 366 days",
    );
    expect(await campaignCount()).toBe(before);
  });

  it("is priced below the product's ordinary price: one öre below is taken, the same price or above is not", async () => {
    expect(await added({ price: 24.99 })).toMatchObject({ price: 24.99, ordinary_price: 25 });
    expect(await added({ price: 0 })).toMatchObject({ price: 0 });
    const made = await added();
    const before = await campaignCount();
    const words = "price: a campaign price must be below the ordinary price of 25.00 kr";
    for (const price of [25, 25.01, 100]) {
      await rule(await platform.post(URL, body({ price })), "price", words);
      await rule(await platform.put(`${URL}/${made.id}`, body({ price })), "price", words);
    }
    expect(await campaignCount()).toBe(before);
    expect((await listed()).items.find((c) => c.id === made.id)?.price).toBe(19.9);
  });

  it("compares with the price of the product it names, which an edit may change", async () => {
    const cheap = await productAt(10);
    const made = await added();
    await rule(
      await platform.put(`${URL}/${made.id}`, body({ product_id: cheap.id, price: 12 })),
      "price",
      "price: a campaign price must be below the ordinary price of 10.00 kr",
    );
    const moved = await platform.put(`${URL}/${made.id}`, body({ product_id: cheap.id, price: 9.5 }));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ product_id: cheap.id, sku: cheap.sku, ordinary_price: 10, price: 9.5 });
  });

  it("names a product and a store that exist, or says which does not (422, not 404: they are in the body)", async () => {
    const made = await added();
    const before = await campaignCount();
    const ghost = randomUUID();
    for (const send of [(b: object) => platform.post(URL, b), (b: object) => platform.put(`${URL}/${made.id}`, b)]) {
      await rule(await send(body({ product_id: ghost })), "product_id", `product_id: Product ${ghost} not found`);
      await rule(await send(body({ store_id: ghost })), "store_id", `store_id: Store ${ghost} not found`);
    }
    expect(await campaignCount()).toBe(before);
  });
});

describe("bad input", () => {
  it.each([
    [{ price: -0.01 }, "price: price cannot be negative"],
    [{ price: 1.234 }, "price: price allows at most two decimals"],
    [{ price: "19.90" }, "price: price is a number of kronor"],
    [{ price: undefined }, "price: price is required"],
    [{ starts_on: "2026-02-30" }, "starts_on: starts_on is not a day of the calendar"],
    [{ ends_on: "1/1/2027" }, "ends_on: ends_on is a date as YYYY-MM-DD"],
    [{ product_id: "kaffe" }, "product_id: product_id must be a UUID"],
    [{ store_id: "butik" }, "store_id: store_id must be a UUID"],
    [{ store_id: undefined }, "store_id"],
    [{ extra: 1 }, "extra"],
  ])("refuses %j with 422 and a detail (%s)", async (change, words) => {
    const made = await added();
    const before = await campaignCount();
    for (const res of [await platform.post(URL, body(change)), await platform.put(`${URL}/${made.id}`, body(change))]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: "validation_error" });
      expect(res.json().detail).toContain(words);
    }
    expect(await campaignCount()).toBe(before);
  });

  it.each([
    ["status=soon", "status must be one of upcoming, active, ended"],
    ["store_id=butik", "store_id must be a UUID"],
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["offset=-1", "offset must be 0 or more"],
    [`search=${"x".repeat(201)}`, "search must be at most 200 characters"],
  ])("refuses the list query %s with 400 and a detail", async (query, words) => {
    const res = await platform.get(`${URL}?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toContain(words);
  });
});
