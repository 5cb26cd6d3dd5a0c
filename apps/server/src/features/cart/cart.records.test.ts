import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listenToSessions } from "../../test/harness.ts";
import { cartTopic } from "./cart.events.ts";

import {
  cartOf,
  ctx,
  ean,
  eventsOf,
  item,
  openCartTests,
  products,
  scan,
  shopperBorn,
  store,
  visit,
} from "./cart.fixtures.ts";

beforeAll(openCartTests);
afterAll(() => ctx.close());

describe("what each change records and announces", () => {
  it("a scan: one item_added from the phone with the product, the code and the line's quantity", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const bus = await listenToSessions(ctx.app);
    const id = randomUUID();
    await scan(kim, s, products.milk!.barcode, id);
    await scan(kim, s, products.milk!.barcode, id); // the same scan again adds and records nothing
    await scan(kim, s, products.milk!.barcode);
    const label = ean("200045604990");
    await scan(kim, s, label);
    const milk = { product: "Mjölk", product_id: products.milk!.id, quantity: 1, barcode: products.milk!.barcode };
    expect(await eventsOf(s)).toEqual([
      { kind: "item_added", source: "phone", detail: { ...milk, line_quantity: 1, label: false } },
      { kind: "item_added", source: "phone", detail: { ...milk, line_quantity: 2, label: false } },
      {
        kind: "item_added",
        source: "phone",
        detail: {
          product: "Tårta",
          product_id: products.cake!.id,
          quantity: 1,
          line_quantity: 1,
          barcode: label,
          label: true,
        },
      },
    ]);
    await bus.settle();
    bus.stop();
    expect(bus.of(s, "item_added")).toEqual(Array(3).fill({ store_id: store, session_id: s, kind: "item_added" }));
  });

  it("a quantity change and a removal: from, to and what went, from the phone; an unchanged quantity is neither", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const bus = await listenToSessions(ctx.app);
    expect((await item(kim, "PUT", line, 3)).statusCode).toBe(200);
    expect((await item(kim, "PUT", line, 3)).statusCode).toBe(200);
    expect((await item(kim, "DELETE", line)).statusCode).toBe(200);
    const bread = { product: "Bröd", product_id: products.bread!.id };
    expect((await eventsOf(s)).slice(1)).toEqual([
      { kind: "quantity_changed", source: "phone", detail: { ...bread, from: 1, to: 3 } },
      { kind: "item_removed", source: "phone", detail: { ...bread, quantity: 3 } },
    ]);
    await bus.settle();
    bus.stop();
    // The scan's own announcement may still be on its way; what the changes told is one each.
    const told = bus.of(s).filter((m) => m.kind !== "item_added");
    expect(told).toEqual([
      { store_id: store, session_id: s, kind: "quantity_changed" },
      { store_id: store, session_id: s, kind: "item_removed" },
    ]);
  });

  it("two removals of one line at once: one takes it, the other finds it gone; one event", async () => {
    const kim = await shopperBorn("1990-05-05");
    const s = await visit(kim);
    const line = (await scan(kim, s, products.bread!.barcode)).json().item.id as string;
    const bus = await listenToSessions(ctx.app);
    const heard: unknown[] = [];
    const stop = ctx.app.bus.subscribe(cartTopic(s), (event) => heard.push(event));
    const answers = await Promise.all(Array.from({ length: 10 }, () => item(kim, "DELETE", line)));
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 404)).toBe(true);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect((await eventsOf(s)).filter((e) => e.kind === "item_removed")).toHaveLength(1);
    expect((await cartOf(kim, s)).items).toEqual([]);
    // The shopper's screens hear of the removal once, and the Sessions screens too. The scan's own event may still
    // be on its way when the listening starts: only what the removals sent is counted.
    const removals = () => heard.filter((event) => (event as { type: string }).type !== "product_added");
    await vi.waitFor(() => expect(removals()).toHaveLength(1));
    await bus.settle();
    bus.stop();
    stop();
    // With the visit's cart_version after it, for the live cart's sockets (the phone never sees the field).
    expect(removals()).toEqual([
      { type: "product_removed", product_id: products.bread!.id, cart_version: expect.stringMatching(/^\d+$/) },
    ]);
    expect(bus.of(s, "item_removed")).toEqual([{ store_id: store, session_id: s, kind: "item_removed" }]);
  });
});
