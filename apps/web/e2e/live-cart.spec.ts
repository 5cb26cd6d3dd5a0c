import type { Page, WebSocketRoute } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

/*
 * How the shopping page's live cart answers the server's closes
 * (docs/live-cart.md): it never fights back in a reconnect loop. The page's
 * clock is faked so "it did not come back" is checked by running its timers
 * two minutes on (every backoff is shorter), not by waiting.
 */

type Counts = { opened: number; closed: number };

/**
 * The /ws/cart sockets the page opens, and how many of them it has seen
 * closed, counted in the page itself: read after the page's timers have run,
 * the counts include whatever those timers did.
 */
async function countSockets(page: Page) {
  await page.addInitScript(() => {
    const counts = { opened: 0, closed: 0 };
    (window as unknown as { liveCartSockets: typeof counts }).liveCartSockets = counts;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (!String(url).includes("/ws/cart")) return;
        counts.opened++;
        this.addEventListener("close", () => counts.closed++);
      }
    };
  });
  const read = () => page.evaluate(() => (window as unknown as { liveCartSockets: Counts }).liveCartSockets);
  return { opened: async () => (await read()).opened, closed: async () => (await read()).closed };
}

/** The page's tab hidden and shown again, as when the shopper comes back to it. */
const showAgain = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));

test("a page whose live cart a newer connection replaced stays off it until it is shown again", async ({ page }) => {
  const visit = await enterStore(page);
  const apple = await createProduct(page.request, { price: 5.5, name: "Äpple Aroma" });
  await page.clock.install();
  const sockets = await countSockets(page);
  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect.poll(sockets.opened).toBe(1);

  // Five more sockets of the visit (other tabs, or someone holding the token): the page's, the oldest, is closed.
  const url = new URL("/ws/cart", page.url().replace(/^http/, "ws"));
  url.searchParams.set("session_id", visit.sessionId);
  const others = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const socket = new WebSocket(url);
      await new Promise<void>((resolve, reject) => {
        socket.addEventListener("open", () =>
          socket.send(JSON.stringify({ type: "auth", access_token: visit.accessToken })),
        );
        socket.addEventListener("message", () => resolve(), { once: true });
        socket.addEventListener("close", (e) => reject(new Error(`closed with ${e.code}`)), { once: true });
      });
      return socket;
    }),
  );
  await expect.poll(sockets.closed).toBe(1);
  await page.clock.runFor(120_000);
  expect(await sockets.opened()).toBe(1);

  await showAgain(page);
  await expect.poll(sockets.opened).toBe(2);
  expect((await scanThroughApi(page, visit, apple.barcode)).ok()).toBe(true);
  await expect(page.getByRole("listitem").filter({ hasText: apple.name })).toContainText("1 st × 5,50 kr");
  for (const socket of others) socket.close();
});

test("an access token the live cart refuses is renewed once; refused again, the page stops asking", async ({
  page,
}) => {
  await enterStore(page);
  await page.clock.install();
  const refreshes: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/auth/refresh")) refreshes.push(request.url());
  });
  const connections: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws\/cart/, (ws) => {
    connections.push(ws);
    // The second connection is refused as soon as it authenticates, before any ready.
    if (connections.length === 2) ws.onMessage(() => ws.close({ code: 4401, reason: "sign in first" }));
    else ws.connectToServer();
  });
  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect.poll(() => connections.length).toBe(1);

  // The token expired: renewed, then straight back.
  const refusedAgain = page.waitForEvent("console", (message) => message.text().includes("refused a renewed token"));
  await connections[0]!.close({ code: 4401, reason: "access token expired" });
  await expect.poll(() => refreshes.length).toBe(1);
  await expect.poll(() => connections.length).toBe(2);
  // Refused again with the renewed token: no second renewal, no reconnect.
  await refusedAgain;
  await page.clock.runFor(120_000);
  expect(refreshes).toHaveLength(1);
  expect(connections).toHaveLength(2);

  await showAgain(page);
  await expect.poll(() => connections.length).toBe(3);
});

test("a sign-in ended elsewhere closes the live cart and sends the page to the start, once", async ({ page }) => {
  await enterStore(page);
  await page.clock.install();
  const sockets = await countSockets(page);
  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect.poll(sockets.opened).toBe(1);

  // Signed out with this phone's refresh token from somewhere else: the server closes the socket with 4401.
  const refreshToken = await page.evaluate(() => localStorage.getItem("glide_refresh_token"));
  const out = await page.request.post("/api/v1/auth/logout", { data: { refresh_token: refreshToken } });
  expect(out.status()).toBe(204);
  await expect(page).toHaveURL(/\/customer$/);
  expect(await page.evaluate(() => localStorage.getItem("glide_refresh_token"))).toBeNull();
  expect(await sockets.closed()).toBe(1);
  await page.clock.runFor(120_000);
  expect(await sockets.opened()).toBe(1);
});
