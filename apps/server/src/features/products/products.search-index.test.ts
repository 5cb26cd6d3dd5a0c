import { type Product, productSchema } from "@glide/contracts";
import { sql } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { queryOne } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { deafBus } from "../../test/buses.ts";
import { admin, create, csvPost, ctx, sku, useProductsApp } from "./products.fixtures.ts";
import { listProducts } from "./products.search.ts";
import { createProductSearch, type ProductSearch, SEARCH_INDEX_MS } from "./search-index.ts";

/**
 * The console's product search answered from each instance's index of the
 * range: the same pages and totals as the database gives, a change seen at
 * once on the instance that made it and on the others through the bus.
 */
useProductsApp();

const probe = { text: "", sort: "name", order: "asc", limit: 1, offset: 0 } as const;
/** Waits until the index answers instead of sending searches to the database. */
const built = (search: ProductSearch) => vi.waitFor(() => expect(search.find(probe)).not.toBeNull());
const fresh = (now?: () => number, maxIndexed?: number) =>
  createProductSearch({
    db: ctx.app.db,
    bus: ctx.app.bus,
    logger: ctx.app.log,
    ...(now ? { now } : {}),
    ...(maxIndexed ? { maxIndexed } : {}),
  });

const listed = z.array(productSchema);
const search = async (q: string) => {
  const res = await admin.get(`/api/v1/products/?search=${encodeURIComponent(q)}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return { ids: listed.parse(res.json()).map((p: Product) => p.id), total: Number(res.headers["x-total-count"]) };
};

describe("the index answers as the database does", () => {
  const tag = `Q${Date.now().toString(36)}`;
  beforeAll(async () => {
    // Names that sort with ties, letters beyond ASCII, upper case, LIKE's wildcards as text, no brand or category.
    const names = [
      "Prästost 500 g",
      "prästost 500 g",
      "Hushållsost 1 kg",
      "Ostbågar 100 g",
      "Getost_50 %",
      "Åkerbär saft",
      "Ärtsoppa",
      "Öl 2,25 %",
      "Korv med bröd",
      "Falukorv 800 g",
      "Falukorv 800 g",
      "Kaffe mellanrost",
      "Kaffe mörkrost",
      "A",
      "Zucchini",
      // A piece of three letters twice in one name.
      "Kokoskokos",
    ];
    const rows = names.flatMap((name, i) => [
      [
        `${tag}-${i}a`,
        `${name} ${tag}`,
        i % 3 === 0 ? "" : `Kat ${i % 4}`,
        i % 2 ? "Arla" : "",
        (10 + (i % 5)).toFixed(2),
      ],
      [`${tag}-${i}b`, name, i % 4 === 0 ? "Kat 1" : "", "", (10 + ((i * 7) % 3)).toFixed(2)],
      [`${tag}-${i}c`, `Fyll ${i}`, "", "", "5.00"],
      [`${tag}-${i}d`, `Fyll ${i} igen`, "", "", "6.00"],
    ]);
    // Few matches (under a sixteenth of the range, sorted apart from the many): name, SKU and price in other orders.
    rows.push([`${tag}-z3`, "Qxz alfa", "Kat 2", "", "3.00"], [`${tag}-z1`, "Qxz beta", "Kat 1", "", "1.00"]);
    rows.push([`${tag}-z2`, "Qxz gamma", "Kat 3", "", "2.00"]);
    const csv = ["sku,name,category,brand,price", ...rows.map((r) => r.map((cell) => `"${cell}"`).join(","))].join(
      "\n",
    );
    const res = await csvPost(`${csv}\n`, "?dry_run=false");
    expect(res.statusCode, res.body).toBe(200);
  });

  const texts = [
    "ost",
    "OST",
    "präst",
    "ä",
    "Ö",
    "a",
    "%",
    "_",
    "t_5",
    "800 g",
    `${tag}`.toLowerCase(),
    "zzzz",
    "korv m",
    "kokos",
    "qxz",
    // The last three characters of a text: "arla" ends every text that has it.
    "arla",
  ];
  it.each(texts)("search %j: every sort, order, category and page", async (text) => {
    const index = fresh();
    await built(index);
    for (const sort of ["name", "sku", "category", "price"] as const) {
      for (const order of ["asc", "desc"] as const) {
        for (const category of [undefined, "all", "Kat 1", "Kat 9"]) {
          for (const [limit, offset] of [
            [5, 0],
            [5, 5],
            [1000, 0],
            [3, 400],
          ] as const) {
            const query = { search: ` ${text} `, category, sort, order, limit, offset };
            const fromDb = await listProducts({ db: ctx.app.db, query });
            const fromIndex = await listProducts({ db: ctx.app.db, query, index });
            const label = JSON.stringify(query);
            expect(
              fromIndex.items.map((p) => p.id),
              label,
            ).toEqual(fromDb.items.map((p) => p.id));
            expect(fromIndex.total, label).toBe(fromDb.total);
          }
        }
      }
    }
    index.close();
  });

  it("is what answers: a product written behind its back is not in its answer until it is built again", async () => {
    const index = fresh();
    await built(index);
    const word = `behind${Date.now().toString(36)}`;
    await ctx.app.db.execute(
      sql`insert into products (sku, name, price_ore) values (${sku()}, ${`Bakom ${word}`}, 100)`,
    );
    const query = { search: word, sort: "price", order: "desc", limit: 10, offset: 0 } as const;
    expect(await listProducts({ db: ctx.app.db, query, index })).toEqual({ items: [], total: 0 });
    expect((await listProducts({ db: ctx.app.db, query })).total).toBe(1);
    // And a page it does answer is read by id, in its order.
    const ost = { ...query, search: "ost", limit: 3, offset: 1 };
    const fromIndex = await listProducts({ db: ctx.app.db, query: ost, index });
    const fromDb = await listProducts({ db: ctx.app.db, query: ost });
    expect(fromIndex.items.map((p) => p.id)).toEqual(fromDb.items.map((p) => p.id));
    expect(fromIndex.items).toHaveLength(3);
    index.close();
  });

  it("leaves a barcode to the barcode table, and answers nothing while it is being built", async () => {
    const p = await create({ name: "Streckkodsvara", barcode: "7310865004703" });
    const index = fresh();
    // Not built yet: the caller asks the database.
    expect(index.find({ ...probe, text: "streckkod" })).toBeNull();
    await built(index);
    const byCode = await listProducts({
      db: ctx.app.db,
      query: { search: "7310865004703", sort: "name", order: "asc", limit: 10, offset: 0 },
      index,
    });
    expect(byCode.items.map((i) => i.id)).toEqual([p.id]);
    index.close();
  });
});

describe("a change shows in the next search", () => {
  it("on the instance that made it: a new product, a new name, a deletion, an import", async () => {
    await search("warm up");
    await built(ctx.app.productSearch);
    const word = `vxq${Date.now().toString(36)}`;
    const p = await create({ name: `Ny ${word}` });
    expect(await search(word)).toEqual({ ids: [p.id], total: 1 });

    const renamed = await admin.put(`/api/v1/products/${p.id}`, { name: "Annat namn" });
    expect(renamed.statusCode).toBe(200);
    expect(await search(word)).toEqual({ ids: [], total: 0 });

    const imported = await csvPost(`sku,name,price\n${sku()},Import ${word},12.00\n`, "?dry_run=false");
    expect(imported.statusCode, imported.body).toBe(200);
    const afterImport = await search(word);
    expect(afterImport.total).toBe(1);

    expect((await admin.delete(`/api/v1/products/${afterImport.ids[0]}`)).statusCode).toBe(204);
    expect(await search(word)).toEqual({ ids: [], total: 0 });
  });

  it("on another instance when the bus tells it", async () => {
    const other = fresh();
    await built(other);
    expect(other.find(probe)).not.toBeNull();
    await create({ name: "Från en annan instans" });
    await vi.waitFor(() => expect(other.find(probe)).toBeNull());
    other.close();
  });

  it("a refused change leaves the index as it was", async () => {
    await search("warm up");
    await built(ctx.app.productSearch);
    const res = await admin.post("/api/v1/products/", { sku: sku(), name: "", price: 1 });
    expect(res.statusCode).toBe(422);
    expect(ctx.app.productSearch.find(probe)).not.toBeNull();
  });

  it("a product gone since the index was built is not shown: the database answers", async () => {
    const word = `gone${Date.now().toString(36)}`;
    const kept = await create({ name: `Kvar ${word}` });
    const removed = await create({ name: `Borta ${word}` });
    const index = fresh();
    await built(index);
    // Deleted behind the index's back, as another instance whose message was lost would.
    await ctx.app.db.execute(sql`delete from products where id = ${removed.id}`);
    const answer = await listProducts({
      db: ctx.app.db,
      query: { search: word, sort: "name", order: "asc", limit: 10, offset: 0 },
      index,
    });
    expect(answer).toMatchObject({ total: 1, items: [{ id: kept.id }] });
    index.close();
  });

  it("an index is built again after its time, answering meanwhile, and not used past twice its time", async () => {
    let clock = 1_000_000;
    const index = fresh(() => clock);
    await built(index);
    const word = `late${Date.now().toString(36)}`;
    // Written behind the index's back: only a new build shows it.
    await ctx.app.db.execute(sql`insert into products (sku, name, price_ore) values (${sku()}, ${`Sen ${word}`}, 100)`);
    const query = { ...probe, text: word };
    clock += SEARCH_INDEX_MS - 1;
    expect(index.find(query)).toEqual({ ids: [], total: 0 });
    clock += 1;
    // Past its time: the old index answers while the next is built.
    expect(index.find(query)).toEqual({ ids: [], total: 0 });
    await vi.waitFor(() => expect(index.find(query)?.total).toBe(1));

    clock += 2 * SEARCH_INDEX_MS;
    // Twice its time: the database answers until the next build is done.
    expect(index.find(query)).toBeNull();
    await vi.waitFor(() => expect(index.find(query)?.total).toBe(1));
    index.close();
  });

  it("a range larger than the limit is left to the database, and looked at again only after the index's time", async () => {
    const { count } = await queryOne<{ count: number }>(ctx.app.db, sql`select count(*)::int as count from products`);
    let clock = 5_000_000;
    const index = fresh(() => clock, count);
    const word = `big${Date.now().toString(36)}`;
    const extra = await create({ name: `En för mycket ${word}` });
    const query = { ...probe, text: word };
    expect(index.find(query)).toBeNull();
    await index.settled();
    // One product over the limit: no index.
    expect(index.find(query)).toBeNull();
    await index.settled();
    await ctx.app.db.execute(sql`delete from products where id = ${extra.id}`);
    // Within its time the range is not read again, though it now fits.
    clock += SEARCH_INDEX_MS - 1;
    expect(index.find(query)).toBeNull();
    await index.settled();
    clock += 1;
    expect(index.find(query)).toBeNull();
    await index.settled();
    expect(index.find(query)).toEqual({ ids: [], total: 0 });
    index.close();
  });
});

describe("a build and a change at the same time", () => {
  it("a build that read the range before a change is not used", async () => {
    // Deaf to the bus, so only its own change forgets.
    const index = createProductSearch({ db: ctx.app.db, bus: deafBus, logger: ctx.app.log });
    expect(index.find(probe)).toBeNull();
    // The change comes while the build reads: its index would be old before it is done.
    await index.changed();
    await index.settled();
    expect(index.find(probe)).toBeNull();
    await built(index);
    index.close();
  });

  it("a change that cannot be told to the others is still forgotten here, and the failure is logged", async () => {
    const warnings: string[] = [];
    const failing: EventBus = { ...deafBus, publish: async () => Promise.reject(new Error("bus down")) };
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(line) });
    const index = createProductSearch({ db: ctx.app.db, bus: failing, logger });
    await built(index);
    await index.changed();
    expect(index.find(probe)).toBeNull();
    expect(warnings.join("")).toContain("could not tell other instances that products changed");
    index.close();
  });

  it("after a change the next build waits four times as long as the last took, and the database answers meanwhile", async () => {
    let clock = 0;
    const index = createProductSearch({ db: ctx.app.db, bus: deafBus, logger: ctx.app.log, now: () => clock });
    expect(index.find(probe)).toBeNull();
    // As the clock sees it, this build takes a second.
    clock = 1_000;
    await index.settled();
    expect(index.find(probe)).not.toBeNull();
    await index.changed();
    clock = 4_999;
    expect(index.find(probe)).toBeNull();
    await index.settled();
    expect(index.find(probe)).toBeNull();
    clock = 5_000;
    expect(index.find(probe)).toBeNull();
    await index.settled();
    expect(index.find(probe)).not.toBeNull();
    index.close();
  });
});
