import { describe, expect, it, vi } from "vitest";
import {
  auth,
  connect,
  enteredVisit,
  instance,
  type LiveSocket,
  liveCartServer,
  recordStatements,
  scan,
  sharedBuses,
  shopperTokens,
} from "../../test/live-cart-harness.ts";
import { MAX_SOCKETS_PER_VISIT, WS_CLOSE } from "./cart.socket.ts";

const server = liveCartServer();
const { shopper, visitOf } = server;

describe("/ws/cart", () => {
  it("answers ready with the cart, then pushes each change with the whole cart after it", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    // On PostgreSQL the scan's event may be heard after ready, which shows it already: it is not told again.
    await scan(server.ctx.app, token, s);
    const live = await connect(`${server.base}?session_id=${s}`, auth(token));
    const [ready] = await live.until(1);
    expect(ready).toMatchObject({ type: "ready", cart: { total: 17.9 } });

    const scanned = await scan(server.ctx.app, token, s);
    const itemId = scanned.json().item.id as string;
    const afterScan = await live.until(3);
    expect(afterScan[1]).toEqual({
      type: "product_added",
      product: { id: scanned.json().product.id, name: "Mjölk", image_url: null, price: 17.9, comparison_price: null },
    });
    expect(afterScan[2]).toMatchObject({ type: "cart_updated", cart: { total: 35.8, items: [{ quantity: 2 }] } });

    await server.ctx.app.inject({
      method: "DELETE",
      url: `/api/v1/cart/item/${itemId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const afterDelete = await live.until(5);
    expect(afterDelete[3]).toEqual({ type: "product_removed", product_id: scanned.json().product.id });
    expect(afterDelete[4]).toMatchObject({ type: "cart_updated", cart: { items: [], total: 0 } });
    live.socket.close();
  });

  it("tells a quantity change as the phone would see it: one more is added, one fewer removed, other changes and 0", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const scanned = await scan(server.ctx.app, token, s);
    const { id: itemId } = scanned.json().item as { id: string };
    const product = scanned.json().product as { id: string };
    const live = await connect(`${server.base}?session_id=${s}`, auth(token));
    expect((await live.until(1))[0]).toMatchObject({ type: "ready", cart: { items: [{ quantity: 1 }] } });
    const setTo = async (quantity: number) => {
      const res = await server.ctx.app.inject({
        method: "PUT",
        url: `/api/v1/cart/item/${itemId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { quantity },
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { items: { quantity: number }[]; total: number };
    };
    const heard = async (n: number) => (await live.until(n)).slice(n - 2);

    expect((await setTo(2)).items).toMatchObject([{ quantity: 2 }]);
    const [added, afterAdded] = await heard(3);
    expect(added).toMatchObject({ type: "product_added", product: { id: product.id, name: "Mjölk", price: 17.9 } });
    expect(afterAdded).toMatchObject({ type: "cart_updated", cart: { total: 35.8, items: [{ quantity: 2 }] } });

    await setTo(1);
    const [removed, afterRemoved] = await heard(5);
    expect(removed).toEqual({ type: "product_removed", product_id: product.id });
    expect(afterRemoved).toMatchObject({ type: "cart_updated", cart: { total: 17.9, items: [{ quantity: 1 }] } });

    await setTo(4);
    const [changed, afterChanged] = await heard(7);
    expect(changed).toEqual({ type: "cart_changed" });
    expect(afterChanged).toMatchObject({ type: "cart_updated", cart: { total: 71.6, items: [{ quantity: 4 }] } });
    await setTo(2);
    expect((await heard(9))[0]).toEqual({ type: "cart_changed" });

    // The same quantity again changes nothing, and is not announced: the next message is the removal's.
    expect((await setTo(2)).total).toBe(35.8);
    await setTo(0);
    const [gone, afterGone] = await heard(11);
    expect(gone).toEqual({ type: "product_removed", product_id: product.id });
    expect(afterGone).toMatchObject({ type: "cart_updated", cart: { items: [], total: 0 } });
    live.socket.close();
  });

  it("closes with 4401 without a valid token first, and with 4403 for another shopper's visit", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const forged = await connect(`${server.base}?session_id=${s}`, auth(`${token}x`));
    expect((await forged.closing())?.code).toBe(4401);
    const wrongType = await connect(`${server.base}?session_id=${s}`, { type: "hello", access_token: token });
    expect((await wrongType.closing())?.code).toBe(4401);
    const notJson = await connect(`${server.base}?session_id=${s}`);
    notJson.socket.send("{");
    expect((await notJson.closing())?.code).toBe(4401);
    const other = await connect(`${server.base}?session_id=${s}`, auth(await shopper()));
    expect((await other.closing())?.code).toBe(4403);
    expect(other.messages).toEqual([]);
    const bad = await connect(`${server.base}?session_id=nope`);
    expect((await bad.closing())?.code).toBe(4400);
    // A visit that is not there (or no longer): the same as another shopper's, and nothing is sent.
    const none = await connect(`${server.base}?session_id=00000000-0000-4000-8000-000000000000`, auth(token));
    expect(await none.closing()).toEqual({ code: 4403, reason: "not your session" });
    expect(none.messages).toEqual([]);
  });

  it("refuses a token whose sign-in has ended", async () => {
    const tokens = await shopperTokens(server.ctx.app);
    const s = await visitOf(tokens.access_token);
    const out = await server.ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(out.statusCode).toBe(204);
    const live = await connect(`${server.base}?session_id=${s}`, auth(tokens.access_token));
    expect((await live.closing())?.code).toBe(4401);
  });

  it("sends nothing of one visit to another visit's socket", async () => {
    const token = await shopper();
    const mine = await visitOf(token);
    const theirs = await visitOf(token);
    const live = await connect(`${server.base}?session_id=${mine}`, auth(token));
    await live.until(1);
    await scan(server.ctx.app, token, theirs);
    await scan(server.ctx.app, token, mine);
    const messages = await live.until(3);
    expect(messages.slice(1).map((m) => m.type)).toEqual(["product_added", "cart_updated"]);
    expect(messages[2]).toMatchObject({ cart: { session_id: mine, items: [{ quantity: 1 }] } });
    live.socket.close();
  });
});

describe("/ws/cart: sockets per visit", () => {
  /** `n` sockets on the visit, opened one after the other, each answered with ready. */
  async function openReady(s: string, token: string, n: number): Promise<LiveSocket[]> {
    const sockets: LiveSocket[] = [];
    for (let i = 0; i < n; i++) {
      const live = await connect(`${server.base}?session_id=${s}`, auth(token));
      expect((await live.until(1))[0]?.type).toBe("ready");
      sockets.push(live);
    }
    return sockets;
  }

  it(`keeps at most ${MAX_SOCKETS_PER_VISIT} a visit: a new one closes the oldest, not itself`, async () => {
    expect(MAX_SOCKETS_PER_VISIT).toBe(5);
    const token = await shopper();
    const s = await visitOf(token);
    const first = await openReady(s, token, MAX_SOCKETS_PER_VISIT);
    const sixth = await connect(`${server.base}?session_id=${s}`, auth(token));
    expect((await sixth.until(1))[0]?.type).toBe("ready");
    expect(await first[0]!.closing()).toEqual({ code: WS_CLOSE.replaced, reason: "replaced by a newer connection" });
    expect(first.slice(1).every((live) => live.isOpen())).toBe(true);
    expect(sixth.isOpen()).toBe(true);

    // The five left all hear the next change; the closed one hears nothing more.
    expect((await scan(server.ctx.app, token, s)).statusCode).toBe(200);
    for (const live of [...first.slice(1), sixth]) {
      expect((await live.until(3)).map((m) => m.type)).toEqual(["ready", "product_added", "cart_updated"]);
    }
    expect(first[0]!.messages.map((m) => m.type)).toEqual(["ready"]);
    // Another visit of the same shopper counts on its own.
    const other = await visitOf(token);
    const elsewhere = await openReady(other, token, 1);
    expect(first.slice(1).every((live) => live.isOpen())).toBe(true);
    for (const live of [...first, sixth, ...elsewhere]) live.socket.close();
  });

  it("keeps the newest when many open at once, and each closed one is told why", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => connect(`${server.base}?session_id=${s}`, auth(token))),
    );
    await vi.waitFor(() => expect(burst.filter((live) => live.isOpen())).toHaveLength(MAX_SOCKETS_PER_VISIT));
    for (const live of burst.filter((l) => !l.isOpen())) {
      expect(await live.closing()).toMatchObject({ code: WS_CLOSE.replaced });
    }
    const open = burst.filter((live) => live.isOpen());
    for (const live of open) expect((await live.until(1))[0]?.type).toBe("ready");
    expect((await scan(server.ctx.app, token, s)).statusCode).toBe(200);
    for (const live of open) expect((await live.until(3)).at(-1)?.type).toBe("cart_updated");
    for (const live of burst) live.socket.close();
  });

  it("reads the cart once per change however many sockets the visit has", async () => {
    const token = await shopper();
    /** Cart reads (the cart's lines with their products) while a scan reaches every socket of a visit. */
    const readsForOneScan = async (sockets: number) => {
      const s = await visitOf(token);
      const open = await openReady(s, token, sockets);
      const statements = recordStatements(server.ctx.app);
      try {
        expect((await scan(server.ctx.app, token, s)).statusCode).toBe(200);
        for (const live of open) expect((await live.until(3))[2]).toMatchObject({ cart: { total: 17.9 } });
      } finally {
        statements.stop();
      }
      for (const live of open) live.socket.close();
      return statements.sent.filter((text) => /from cart_items i join products/.test(text)).length;
    };
    const withOne = await readsForOneScan(1);
    expect(withOne).toBeGreaterThan(0);
    expect(await readsForOneScan(MAX_SOCKETS_PER_VISIT)).toBe(withOne);
  });
});

for (const bus of await sharedBuses()) {
  describe.skipIf(!bus.available)(`two instances on one PostgreSQL, events over ${bus.name}`, () => {
    it("a scan served by instance A reaches a socket held by instance B, and only that visit's", async () => {
      const a = await instance(server.ctx, server.secret, bus.env);
      const b = await instance(server.ctx, server.secret, bus.env);
      try {
        const { access_token: token } = await shopperTokens(a.app);
        const s = await enteredVisit(a.app, await server.newStore(), token);
        const other = await enteredVisit(a.app, await server.newStore(), token);
        const onB = await connect(`${b.url}?session_id=${s}`, auth(token));
        const otherOnB = await connect(`${b.url}?session_id=${other}`, auth(token));
        expect((await onB.until(1))[0]?.type).toBe("ready");
        expect((await otherOnB.until(1))[0]?.type).toBe("ready");
        expect((await scan(a.app, token, s)).statusCode).toBe(200);
        const messages = await onB.until(3);
        expect(messages.map((m) => m.type)).toEqual(["ready", "product_added", "cart_updated"]);
        expect((messages[2]?.cart as { total: number } | undefined)?.total).toBe(17.9);
        // The other visit's socket on B heard nothing of it (its event would have come with these).
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(otherOnB.messages.map((m) => m.type)).toEqual(["ready"]);
        onB.socket.close();
        otherOnB.socket.close();
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
