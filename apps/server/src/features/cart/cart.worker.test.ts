import { randomUUID } from "node:crypto";
import { cartSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenToSessions } from "../../test/harness.ts";
import { cartTopic } from "./cart.events.ts";

import {
  cartOf,
  ctx,
  eventsOf,
  openCartTests,
  plainStore,
  products,
  setModule,
  shopperBorn,
  store,
  visit,
  worker,
  workerKey,
} from "./cart.fixtures.ts";

beforeAll(openCartTests);
afterAll(() => ctx.close());

describe("the recognition worker", () => {
  it("adds and removes one product in its own store's visits, with the module on", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.bread!.id, action: "add" };
    expect((await worker(key, add)).statusCode).toBe(200);
    const event = randomUUID();
    expect(cartSchema.parse((await worker(key, { ...add, event_id: event })).json()).items[0]?.quantity).toBe(2);
    expect(cartSchema.parse((await worker(key, { ...add, event_id: event })).json()).items[0]?.quantity).toBe(2);
    const remove = { ...add, action: "remove" };
    expect(cartSchema.parse((await worker(key, remove)).json()).items[0]?.quantity).toBe(1);
    expect(cartSchema.parse((await worker(key, remove)).json()).items).toEqual([]);
    expect((await worker(key, remove)).json().code).toBe("not_in_cart");
    // Age limits hold for the worker too: this store sells snus only to adults, and Kim is one.
    expect((await worker(key, { ...add, product_id: products.snus!.id })).statusCode).toBe(200);
  });

  it("refuses another store's visit, a wrong kind of key, no key, and a store without the module", async () => {
    await setModule(store, "ai_product_recognition", true);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.milk!.id, action: "add" };
    expect((await worker(await workerKey(plainStore), add)).statusCode).toBe(403);
    expect((await worker(await workerKey(store, "door_scanner"), add)).statusCode).toBe(401);
    expect((await worker(null, add)).statusCode).toBe(401);
    await setModule(store, "ai_product_recognition", false);
    const off = await worker(await workerKey(store), add);
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe("module_disabled");
    expect((await cartOf(kim, s)).items).toEqual([]);
  });
});

describe("the recognition worker's refusals and records", () => {
  it("answers each refusal with its code and words, changing nothing", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const add = { session_id: s, product_id: products.milk!.id, action: "add" };
    const refusal = async (res: Awaited<ReturnType<typeof worker>>) => [
      res.statusCode,
      res.json().code,
      res.json().detail,
    ];
    expect(await refusal(await worker(await workerKey(plainStore), add))).toEqual([
      403,
      "wrong_store",
      "The session belongs to another store",
    ]);
    expect(await refusal(await worker(key, { ...add, session_id: randomUUID() }))).toEqual([
      404,
      "unknown_session",
      "Sessionen finns inte.",
    ]);
    expect(await refusal(await worker(key, { ...add, product_id: randomUUID() }))).toEqual([
      404,
      "unknown_product",
      "Unknown product",
    ]);
    expect(await refusal(await worker(key, { ...add, product_id: products.old!.id }))).toEqual([
      409,
      "product_inactive",
      "Utgått säljs inte just nu.",
    ]);
    expect(await refusal(await worker(key, { ...add, action: "remove" }))).toEqual([
      404,
      "not_in_cart",
      "Mjölk finns inte i kundvagnen.",
    ]);
    const teen = await shopperBorn(`${new Date().getFullYear() - 16}-01-01`);
    const young = await visit(teen);
    expect(await refusal(await worker(key, { ...add, session_id: young, product_id: products.snus!.id }))).toEqual([
      403,
      "under_age",
      "Du måste vara minst 18 år för att köpa Snus.",
    ]);
    await setModule(store, "ai_product_recognition", false);
    expect(await refusal(await worker(key, add))).toEqual([
      403,
      "module_disabled",
      "The store does not have the ai_product_recognition module",
    ]);
    expect((await cartOf(kim, s)).items).toEqual([]);
    expect((await cartOf(teen, young)).items).toEqual([]);
  });

  it("records each sighting from the camera worker and tells the screens and the phone", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    await ctx.app.bus.ready();
    const phone: { type: string; product_id?: string; product?: { id: string } }[] = [];
    const stopPhone = ctx.app.bus.subscribe(cartTopic(s), (m) => phone.push(m as (typeof phone)[number]));
    const bus = await listenToSessions(ctx.app);
    const add = { session_id: s, product_id: products.bread!.id, action: "add" };
    const remove = { ...add, action: "remove" };
    for (const body of [add, add, remove, remove]) expect((await worker(key, body)).statusCode).toBe(200);
    const bread = { product: "Bröd", product_id: products.bread!.id };
    expect(await eventsOf(s)).toEqual([
      { kind: "item_added", source: "camera_worker", detail: { ...bread, quantity: 1 } },
      { kind: "item_added", source: "camera_worker", detail: { ...bread, quantity: 1 } },
      { kind: "quantity_changed", source: "camera_worker", detail: { ...bread, from: 2, to: 1 } },
      { kind: "item_removed", source: "camera_worker", detail: { ...bread, from: 1, to: 0 } },
    ]);
    await bus.settle();
    bus.stop();
    stopPhone();
    expect(bus.of(s).filter((m) => m.kind !== "entry_issued" && m.kind !== "door_opened")).toEqual(
      ["item_added", "item_added", "quantity_changed", "item_removed"].map((kind) => ({
        store_id: store,
        session_id: s,
        kind,
      })),
    );
    expect(phone.map((m) => [m.type, m.product?.id ?? m.product_id])).toEqual([
      ["product_added", products.bread!.id],
      ["product_added", products.bread!.id],
      ["product_removed", products.bread!.id],
      ["product_removed", products.bread!.id],
    ]);
  });

  it("counts one sighting sent many times at once once, and refuses its id in another visit or after its line went", async () => {
    await setModule(store, "ai_product_recognition", true);
    const key = await workerKey(store);
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const event = randomUUID();
    const add = { session_id: s, product_id: products.milk!.id, action: "add", event_id: event };
    const answers = await Promise.all(Array.from({ length: 20 }, () => worker(key, add)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await cartOf(kim, s)).items.map((i) => i.quantity)).toEqual([1]);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_added")).toHaveLength(1);

    const elsewhere = await worker(key, { ...add, session_id: await visit(await shopperBorn("1991-06-06")) });
    expect(elsewhere.json()).toMatchObject({ code: "scan_id_reused", detail: "Skanningen hör till ett annat besök." });
    expect((await worker(key, { ...add, action: "remove", event_id: undefined })).statusCode).toBe(200);
    const gone = await worker(key, add);
    expect(gone.json()).toMatchObject({ code: "scan_already_counted", detail: "Skanningen är redan registrerad." });
    expect((await cartOf(kim, s)).items).toEqual([]);
  });
});
