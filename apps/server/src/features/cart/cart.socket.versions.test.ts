import { describe, expect, it, vi } from "vitest";
import { sql } from "../../db/client.ts";
import { auth, connect, liveCartServer, recordStatements, scan } from "../../test/live-cart-harness.ts";
import { cartTopic } from "./cart.events.ts";

/*
 * The live cart tells a socket each change once. An event reaches the
 * instances a moment after its change commits (on PostgreSQL through
 * LISTEN/NOTIFY), so it may come after a socket's cart was read with the
 * change in it: the visit's cart_version on the event, against the one read
 * before the socket's cart, says so (docs/live-cart.md). A late event is made
 * here by publishing the change's own message again after `ready`.
 */

const server = liveCartServer();
const { shopper, visitOf } = server;

describe("/ws/cart: each change told once", () => {
  it("does not tell a socket a change its cart already showed when the event is heard late; a newer one it does", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    // A visit many changes old: its versions have two digits.
    await server.ctx.app.db.execute(sql`update shopping_sessions set cart_version = 40 where id = ${s}`);
    const published: Record<string, unknown>[] = [];
    const stop = server.ctx.app.bus.subscribe(cartTopic(s), (event) =>
      published.push(event as Record<string, unknown>),
    );
    await scan(server.ctx.app, token, s);
    await vi.waitFor(() => expect(published).toHaveLength(1));
    stop();
    const [late] = published;
    expect(late).toMatchObject({ type: "product_added", cart_version: "41" });
    const live = await connect(`${server.base}?session_id=${s}`, auth(token));
    expect((await live.until(1))[0]).toMatchObject({ type: "ready", cart: { items: [{ quantity: 1 }] } });

    // The scan's NOTIFY arrives now, after the read that showed it (as it may on PostgreSQL): the socket hears nothing.
    await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: late }]);
    // The next scan is one version on: told, without the version, and its cart follows.
    const next = await scan(server.ctx.app, token, s);
    const [, added, updated] = await live.until(3);
    expect(added).toEqual({
      type: "product_added",
      product: { id: next.json().product.id, name: "Mjölk", image_url: null, price: 17.9, comparison_price: null },
    });
    expect(updated).toMatchObject({ type: "cart_updated", cart: { items: [{ quantity: 2 }] } });

    // An event of a change that knows no version (a voucher, a new price) is always told.
    await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: { type: "cart_changed" } }]);
    expect((await live.until(5)).slice(3)).toMatchObject([{ type: "cart_changed" }, { type: "cart_updated" }]);
    // The first scan heard late once more, now behind the socket's cart by one: still not told.
    await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: late }]);
    await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: { type: "cart_changed" } }]);
    expect((await live.until(7)).slice(5)).toMatchObject([{ type: "cart_changed" }, { type: "cart_updated" }]);
    // A version that is not a number (from a message nobody here wrote) says nothing: the change is told.
    for (const cart_version of ["1x", "x1", "", 1, "1".repeat(20)]) {
      await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: { type: "cart_changed", cart_version } }]);
    }
    const told = () => live.messages.slice(7).filter((message) => message.type === "cart_changed");
    await vi.waitFor(() => expect(told()).toHaveLength(5));
    expect(told()).toEqual(Array(5).fill({ type: "cart_changed" }));
    live.socket.close();
  });

  it("does not tell a socket a quantity change or removal its cart already showed, heard late", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    // Heard from before the scans: events arrive in the order their changes committed, the scans' first.
    const heard: Record<string, unknown>[] = [];
    const stop = server.ctx.app.bus.subscribe(cartTopic(s), (event) => heard.push(event as Record<string, unknown>));
    const itemId = (await scan(server.ctx.app, token, s)).json().item.id as string;
    await scan(server.ctx.app, token, s);
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    heard.length = 0;
    const published: Record<string, unknown>[] = [];
    const change = (method: "PUT" | "DELETE", payload?: { quantity: number }) =>
      server.ctx.app.inject({
        method,
        url: `/api/v1/cart/item/${itemId}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    expect((await change("PUT", { quantity: 3 })).statusCode).toBe(200);
    expect((await change("PUT", { quantity: 2 })).statusCode).toBe(200);
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    published.push(...heard.splice(0));
    expect(published.map((message) => message.type)).toEqual(["product_added", "product_removed"]);
    expect(published.every((message) => typeof message.cart_version === "string")).toBe(true);
    const live = await connect(`${server.base}?session_id=${s}`, auth(token));
    expect((await live.until(1))[0]).toMatchObject({ type: "ready", cart: { items: [{ quantity: 2 }] } });
    expect((await change("DELETE")).statusCode).toBe(200);
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    stop();
    published.push(...heard);
    expect(published[2]).toMatchObject({ type: "product_removed", cart_version: expect.any(String) });
    expect((await live.until(3)).slice(1)).toMatchObject([{ type: "product_removed" }, { type: "cart_updated" }]);

    // All three heard again, late: the socket's cart shows them, so it hears nothing until a change it has not seen.
    await server.ctx.app.bus.publishMany(published.map((message) => ({ topic: cartTopic(s), message })));
    await server.ctx.app.bus.publishMany([{ topic: cartTopic(s), message: { type: "cart_changed" } }]);
    expect((await live.until(5)).slice(3)).toMatchObject([{ type: "cart_changed" }, { type: "cart_updated" }]);
    live.socket.close();
  });

  it("answers a change whose version cannot be read, and tells its event to every socket without one", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const itemId = (await scan(server.ctx.app, token, s)).json().item.id as string;
    const live = await connect(`${server.base}?session_id=${s}`, auth(token));
    expect((await live.until(1))[0]).toMatchObject({ type: "ready", cart: { items: [{ quantity: 1 }] } });
    const heard: Record<string, unknown>[] = [];
    const stop = server.ctx.app.bus.subscribe(cartTopic(s), (event) => heard.push(event as Record<string, unknown>));
    const broken = recordStatements(server.ctx.app, /select cart_version::text as v from shopping_sessions/);
    let res: Awaited<ReturnType<typeof server.ctx.app.inject>>;
    try {
      res = await server.ctx.app.inject({
        method: "PUT",
        url: `/api/v1/cart/item/${itemId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { quantity: 2 },
      });
      await vi.waitFor(() => expect(heard).toHaveLength(1));
    } finally {
      broken.stop();
      stop();
    }
    // The change's own read was refused; the socket's read of the cart after it was not.
    expect(broken.sent.filter((text) => text.includes("select cart_version::text as v")).length).toBeGreaterThan(0);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ items: [{ quantity: 2 }] });
    expect(heard[0]).toMatchObject({ type: "product_added" });
    expect(heard[0]).not.toHaveProperty("cart_version");
    expect((await live.until(3)).slice(1)).toMatchObject([
      { type: "product_added" },
      { type: "cart_updated", cart: { items: [{ quantity: 2 }] } },
    ]);
    live.socket.close();
  });
});
