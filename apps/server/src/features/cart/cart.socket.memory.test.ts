import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_DATABASE_URL, waitingForLocks } from "../../test/harness.ts";
import { auth, connect, liveCartServer, scan } from "../../test/live-cart-harness.ts";
import { cartTopic } from "./cart.events.ts";
import { WS_CLOSE } from "./cart.socket.ts";

/**
 * What the live cart holds for a visit on an instance (its bus subscription
 * and its queue) lasts as long as the visit has a socket there: a shop's
 * day of visits must not pile up in memory.
 */
const server = liveCartServer();
const { shopper, visitOf } = server;
let restore: (() => void) | undefined;
afterEach(() => restore?.());

/** The subscriptions to one visit's changes that this instance has made, and those still open. */
function subscriptionsTo(sessionId: string) {
  const bus = server.ctx.app.bus;
  const original = bus.subscribe;
  const counts = { made: 0, open: 0 };
  const spy = vi.spyOn(bus, "subscribe").mockImplementation((topic, handler) => {
    const stop = original.call(bus, topic, handler);
    if (topic !== cartTopic(sessionId)) return stop;
    counts.made++;
    counts.open++;
    let stopped = false;
    return () => {
      if (!stopped) counts.open--;
      stopped = true;
      stop();
    };
  });
  restore = () => spy.mockRestore();
  return counts;
}

describe("a visit's place in the live cart", () => {
  it("is one subscription however many sockets, kept while one is open and let go with the last", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const subscriptions = subscriptionsTo(s);
    const first = await connect(`${server.base}?session_id=${s}`, auth(token));
    const second = await connect(`${server.base}?session_id=${s}`, auth(token));
    await first.until(1);
    await second.until(1);
    expect(subscriptions).toEqual({ made: 1, open: 1 });

    first.socket.close();
    expect(await first.closing()).not.toBeNull();
    // The other socket still hears the visit's changes.
    await scan(server.ctx.app, token, s);
    expect((await second.until(3)).map((m) => m.type)).toEqual(["ready", "product_added", "cart_updated"]);
    expect(subscriptions.open).toBe(1);

    second.socket.close();
    await vi.waitFor(() => expect(subscriptions.open).toBe(0));
  });

  it("is let go when its only socket is refused", async () => {
    const owner = await shopper();
    const s = await visitOf(owner);
    const subscriptions = subscriptionsTo(s);
    const stranger = await connect(`${server.base}?session_id=${s}`, auth(await shopper()));
    expect(await stranger.closing()).toMatchObject({ code: WS_CLOSE.forbidden });
    expect(subscriptions.made).toBe(1);
    await vi.waitFor(() => expect(subscriptions.open).toBe(0));
  });

  it("is made anew when a socket comes back after the last one left, and hears the visit's changes", async () => {
    const token = await shopper();
    const s = await visitOf(token);
    const subscriptions = subscriptionsTo(s);
    const gone = await connect(`${server.base}?session_id=${s}`, auth(token));
    await gone.until(1);
    gone.socket.close();
    await vi.waitFor(() => expect(subscriptions.open).toBe(0));

    const back = await connect(`${server.base}?session_id=${s}`, auth(token));
    await back.until(1);
    expect(subscriptions).toEqual({ made: 2, open: 1 });
    await scan(server.ctx.app, token, s);
    expect((await back.until(3)).map((m) => m.type)).toEqual(["ready", "product_added", "cart_updated"]);
    back.socket.close();
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  "a visit whose last socket leaves while its cart is being read (PostgreSQL)",
  () => {
    it("is let go once the read is over", async () => {
      const token = await shopper();
      const s = await visitOf(token);
      const subscriptions = subscriptionsTo(s);
      const other = new pg.Client({ connectionString: server.ctx.databaseUrl });
      await other.connect();
      try {
        // The cart's lines cannot be read until this transaction ends: the socket's first read waits on it.
        await other.query("begin");
        await other.query("lock table cart_items in access exclusive mode");
        const leaving = await connect(`${server.base}?session_id=${s}`, auth(token));
        await waitingForLocks(server.ctx.app.db, 1, "cart_items");
        leaving.socket.close();
        expect(await leaving.closing()).not.toBeNull();
        expect(subscriptions.open).toBe(1);
        await other.query("commit");
      } finally {
        await other.end();
      }
      await vi.waitFor(() => expect(subscriptions.open).toBe(0));
    });
  },
);
