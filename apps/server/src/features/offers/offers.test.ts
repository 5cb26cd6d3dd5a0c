import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  added,
  auditOf,
  body,
  day,
  listed,
  offerCount,
  other,
  platform,
  platformEmail,
  product,
  productAt,
  storeA,
  URL,
  useOffersApp,
} from "./offers.fixtures.ts";

/**
 * Multi-buy offers through the API: an offer's life in the audit log, and
 * the rules a body must keep (label, kind and amount, buy, products, days,
 * limit, store) on both sides of each boundary. Who may do what:
 * offers.access.test.ts; the list, its statuses and bad input:
 * offers.list.test.ts.
 */
useOffersApp();

type Res = Awaited<ReturnType<typeof platform.post>>;
const rule = (res: Res, path: string, detail: string) => {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toMatchObject({ code: "validation_error", detail });
  expect(res.json().errors[0].path).toBe(path);
};

/** Each change refused on POST and on PUT with the detail on `path`, and nothing written. */
async function refusedBoth(change: Record<string, unknown>, path: string, detail: string) {
  const made = await added();
  const before = await offerCount();
  rule(await platform.post(URL, body(change)), path, detail);
  rule(await platform.put(`${URL}/${made.id}`, body(change)), path, detail);
  expect(await offerCount()).toBe(before);
  expect((await listed("limit=100")).items.find((o) => o.id === made.id)).toEqual(made);
}

const products = () => [
  { id: product.id, sku: product.sku, name: "Kaffe 500 g", price: 25 },
  { id: other.id, sku: other.sku, name: "Te 100 g", price: 20 },
];

describe("an offer's life", () => {
  it("is added, replaced (products too) and deleted, each step in the audit log with before and after", async () => {
    const created = await added();
    expect(created).toEqual({
      id: created.id,
      label: "3 för 2 på frukost",
      kind: "one_free",
      buy: 3,
      amount: null,
      products: products(),
      store_id: storeA,
      store_name: "Erbjudandebutiken",
      starts_on: day(0),
      ends_on: day(6),
      limit_per_visit: 2,
      members_only: false,
      status: "active",
    });

    const replacement = body({
      label: "2 för 35",
      kind: "amount",
      buy: 2,
      amount: 35,
      product_ids: [product.id],
      store_id: null,
      starts_on: day(10),
      ends_on: day(20),
      limit_per_visit: null,
    });
    const put = await platform.put(`${URL}/${created.id}`, replacement);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({
      ...created,
      label: "2 för 35",
      kind: "amount",
      buy: 2,
      amount: 35,
      products: products().slice(0, 1),
      store_id: null,
      store_name: null,
      starts_on: day(10),
      ends_on: day(20),
      limit_per_visit: null,
      status: "upcoming",
    });

    expect((await platform.delete(`${URL}/${created.id}`)).statusCode).toBe(204);
    expect((await listed("limit=100")).items.map((o) => o.id)).not.toContain(created.id);
    expect((await platform.delete(`${URL}/${created.id}`)).statusCode).toBe(404);

    const audit = await auditOf(created.id);
    expect(audit.map((a) => [a.action, a.entity_type, a.actor_email, a.store_id])).toEqual([
      ["offer.create", "offer", platformEmail, storeA],
      ["offer.update", "offer", platformEmail, null],
      ["offer.delete", "offer", platformEmail, null],
    ]);
    const first = `"3 för 2 på frukost" (3 för 2) on Kaffe 500 g, Te 100 g in Erbjudandebutiken from ${day(0)} to ${day(6)}`;
    expect(audit.map((a) => a.summary)).toEqual([
      `Offer ${first} created`,
      `Offer "${first}" updated: label, kind, buy, amount, products, store_id, store_name, starts_on, ends_on, limit_per_visit, status`,
      `Offer "2 för 35" (2 för 35,00 kr) on Kaffe 500 g in every store from ${day(10)} to ${day(20)} deleted`,
    ]);
    expect(audit[0]).toMatchObject({ before: null, after: created });
    expect(audit[1]).toMatchObject({ before: created, after: put.json() });
    expect(audit[2]).toMatchObject({ before: put.json(), after: null });
  });

  it("records nothing for a replacement that changes nothing, products given in another order", async () => {
    const created = await added();
    const same = await platform.put(`${URL}/${created.id}`, body({ product_ids: [other.id, product.id] }));
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(created);
    expect((await auditOf(created.id)).map((a) => a.action)).toEqual(["offer.create"]);
  });

  it("answers 404 with a detail for an id that names no offer, malformed or unknown", async () => {
    for (const id of [randomUUID(), "not-an-id", "12"]) {
      for (const res of [await platform.put(`${URL}/${id}`, body()), await platform.delete(`${URL}/${id}`)]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().detail).toBe(`Offer ${id} not found`);
      }
    }
  });
});

describe("the rules of an offer", () => {
  it("has a label of 1 to 40 characters, trimmed", async () => {
    expect(await added({ label: "  3 för 2  " })).toMatchObject({ label: "3 för 2" });
    expect(await added({ label: "x".repeat(40) })).toMatchObject({ label: "x".repeat(40) });
    expect(await added({ label: "x" })).toMatchObject({ label: "x" });
    await refusedBoth({ label: "x".repeat(41) }, "label", "label: label must be at most 40 characters");
    await refusedBoth({ label: "   " }, "label", "label: label is required");
    await refusedBoth({ label: undefined }, "label", "label: label is required");
  });

  it("takes an amount for a fixed price, and none for pay-for-all-but-one", async () => {
    expect(await added({ kind: "one_free", amount: null })).toMatchObject({ amount: null });
    expect(await added({ kind: "amount", buy: 2, amount: 35 })).toMatchObject({ kind: "amount", amount: 35 });
    await refusedBoth({ kind: "amount", buy: 2 }, "amount", "amount: amount is required for a fixed-price offer");
    await refusedBoth(
      { kind: "amount", buy: 2, amount: null },
      "amount",
      "amount: amount is required for a fixed-price offer",
    );
    await refusedBoth({ kind: "one_free", amount: 30 }, "amount", "amount: amount is only for a fixed-price offer");
    await refusedBoth({ kind: "one_free", amount: 0 }, "amount", "amount: amount is only for a fixed-price offer");
  });

  it("is cheaper than buy units of the cheapest product it takes: one öre below is taken, equal or above is not", async () => {
    // Te costs 20 kr: 2 of it 40 kr, 3 of it 60 kr.
    expect(await added({ kind: "amount", buy: 2, amount: 39.99 })).toMatchObject({ amount: 39.99 });
    expect(await added({ kind: "amount", buy: 3, amount: 59.99 })).toMatchObject({ amount: 59.99 });
    expect(await added({ kind: "amount", buy: 2, amount: 0 })).toMatchObject({ amount: 0 });
    const words = "amount: a fixed price must be below what 2 of the cheapest product cost, 40.00 kr";
    for (const amount of [40, 40.01, 45]) await refusedBoth({ kind: "amount", buy: 2, amount }, "amount", words);
    // Kaffe alone costs 25 kr: 2 of it 50 kr.
    expect(await added({ kind: "amount", buy: 2, amount: 45, product_ids: [product.id] })).toMatchObject({
      amount: 45,
    });
    await refusedBoth(
      { kind: "amount", buy: 2, amount: 50, product_ids: [product.id] },
      "amount",
      "amount: a fixed price must be below what 2 of the cheapest product cost, 50.00 kr",
    );
  });

  it("compares with the prices of the products it names, which an edit may change", async () => {
    const cheap = await productAt(10);
    const made = await added({ kind: "amount", buy: 2, amount: 30 });
    rule(
      await platform.put(`${URL}/${made.id}`, body({ kind: "amount", buy: 2, amount: 30, product_ids: [cheap.id] })),
      "amount",
      "amount: a fixed price must be below what 2 of the cheapest product cost, 20.00 kr",
    );
    const moved = await platform.put(
      `${URL}/${made.id}`,
      body({ kind: "amount", buy: 2, amount: 19.5, product_ids: [cheap.id] }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ amount: 19.5, products: [{ id: cheap.id, price: 10 }] });
  });

  it("buys 2 to 20 units, whole", async () => {
    expect(await added({ buy: 2 })).toMatchObject({ buy: 2 });
    expect(await added({ buy: 20 })).toMatchObject({ buy: 20 });
    for (const buy of [1, 21]) await refusedBoth({ buy }, "buy", "buy: buy must be from 2 to 20");
    await refusedBoth({ buy: 2.5 }, "buy", "buy: buy must be a whole number");
  });

  it("takes 1 to 50 distinct products that exist, and names one that does not", async () => {
    expect(await added({ product_ids: [other.id] })).toMatchObject({ products: products().slice(1) });
    const ghost = randomUUID();
    await refusedBoth({ product_ids: [product.id, ghost] }, "product_ids", `product_ids: Product ${ghost} not found`);
    // 50 ids pass the body's rule (and are then looked up); 51 do not.
    const fifty = [product.id, ...Array.from({ length: 49 }, () => randomUUID())];
    const missing = (await platform.post(URL, body({ product_ids: fifty }))).json();
    expect(missing.detail).toBe(`product_ids: Product ${fifty[1]} not found`);
    await refusedBoth(
      { product_ids: [...fifty, randomUUID()] },
      "product_ids",
      "product_ids: product_ids takes at most 50 products",
    );
    await refusedBoth({ product_ids: [] }, "product_ids", "product_ids: product_ids needs at least one product");
    await refusedBoth(
      { product_ids: [product.id, product.id] },
      "product_ids",
      "product_ids: product_ids names a product twice",
    );
  });

  it("runs from a day to the same day or later, 366 days at most", async () => {
    expect(await added({ starts_on: day(3), ends_on: day(3) })).toMatchObject({ starts_on: day(3), ends_on: day(3) });
    expect(await added({ starts_on: day(1), ends_on: day(366) })).toMatchObject({ ends_on: day(366) });
    expect(await added({ starts_on: "2028-01-01", ends_on: "2028-12-31" })).toMatchObject({ ends_on: "2028-12-31" });
    await refusedBoth({ starts_on: day(3), ends_on: day(2) }, "ends_on", "ends_on: ends_on cannot be before starts_on");
    await refusedBoth(
      { starts_on: day(1), ends_on: day(367) },
      "ends_on",
      "ends_on: An offer may run at most 366 days",
    );
    await refusedBoth(
      { starts_on: "2028-01-01", ends_on: "2029-01-01" },
      "ends_on",
      "ends_on: An offer may run at most 366 days",
    );
  });

  it("is used at most 1 to 99 times a visit, or without limit", async () => {
    expect(await added({ limit_per_visit: 1 })).toMatchObject({ limit_per_visit: 1 });
    expect(await added({ limit_per_visit: 99 })).toMatchObject({ limit_per_visit: 99 });
    expect(await added({ limit_per_visit: null })).toMatchObject({ limit_per_visit: null });
    for (const limit_per_visit of [0, 100]) {
      await refusedBoth(
        { limit_per_visit },
        "limit_per_visit",
        "limit_per_visit: limit_per_visit must be from 1 to 99",
      );
    }
  });

  it("names a store that exists (422, not 404: it is in the body)", async () => {
    const ghost = randomUUID();
    await refusedBoth({ store_id: ghost }, "store_id", `store_id: Store ${ghost} not found`);
  });
});
