import { sql } from "drizzle-orm";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../platform/crypto.ts";
import {
  auth,
  connect,
  enteredVisit,
  instance,
  type LiveSocket,
  liveCartServer,
  refresh,
  scan,
  sharedBuses,
  shopperTokens,
  signOut,
} from "../../test/live-cart-harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";
import { WS_CLOSE } from "./cart.socket.ts";

/**
 * A live cart socket lasts no longer than the sign-in whose token opened it:
 * sign-out, a reused refresh token (the whole sign-in ends) and the access
 * token's expiry close it with 4401, on whichever instance holds it.
 */

const server = liveCartServer();

/** A socket on `url` for the visit that has answered ready. */
async function ready(url: string, sessionId: string, token: string): Promise<LiveSocket> {
  const live = await connect(`${url}?session_id=${sessionId}`, auth(token));
  expect((await live.until(1))[0]?.type).toBe("ready");
  return live;
}

/** Marks a refresh token spent a minute ago: presenting it again is then reuse, not a second tab. */
const spentLongAgo = (token: string) =>
  server.ctx.app.db.execute(
    sql`update shopper_refresh_tokens set used_at = now() - interval '1 minute' where token_hash = ${sha256(token)}`,
  );

describe("/ws/cart ends with its sign-in", () => {
  it("sign-out closes that sign-in's sockets with 4401, and no other sign-in's", async () => {
    const phone = await shopperTokens(server.ctx.app);
    // The same shopper signed in on a second phone: a sign-in of its own.
    const tablet = await issueTokens(server.ctx.app.db, server.ctx.app.shopperKeys.jwt, phone.customer);
    const s = await enteredVisit(server.ctx.app, await server.newStore(), phone.access_token);
    const onPhone = await ready(server.base, s, phone.access_token);
    const onTablet = await ready(server.base, s, tablet.access_token);

    expect((await signOut(server.ctx.app, phone.refresh_token)).statusCode).toBe(204);
    expect(await onPhone.closing()).toEqual({ code: WS_CLOSE.unauthorized, reason: "signed out" });
    // It heard nothing of the cart after the sign-out; the other sign-in's socket still does.
    expect((await scan(server.ctx.app, tablet.access_token, s)).statusCode).toBe(200);
    expect((await onTablet.until(3)).map((m) => m.type)).toEqual(["ready", "product_added", "cart_updated"]);
    expect(onPhone.messages.map((m) => m.type)).toEqual(["ready"]);
    expect(onTablet.isOpen()).toBe(true);
    onTablet.socket.close();
  });

  it("a reused refresh token ends the sign-in, and its sockets with 4401, those of its newer tokens too", async () => {
    const first = await shopperTokens(server.ctx.app);
    const s = await enteredVisit(server.ctx.app, await server.newStore(), first.access_token);
    const rotated = await refresh(server.ctx.app, first.refresh_token);
    expect(rotated.statusCode).toBe(200);
    const older = await ready(server.base, s, first.access_token);
    const newer = await ready(server.base, s, rotated.json().access_token as string);

    await spentLongAgo(first.refresh_token);
    const stolen = await refresh(server.ctx.app, first.refresh_token);
    expect(stolen.json()).toMatchObject({ code: "refresh_token_reused" });
    expect((await older.closing())?.code).toBe(WS_CLOSE.unauthorized);
    expect((await newer.closing())?.code).toBe(WS_CLOSE.unauthorized);
  });

  it("closes with 4401 when the access token expires", async () => {
    const tokens = await shopperTokens(server.ctx.app);
    const s = await enteredVisit(server.ctx.app, await server.newStore(), tokens.access_token);
    // A token of the same sign-in that expires within two seconds: the timer, not a clock of its own, closes it.
    const exp = Math.floor(Date.now() / 1000) + 2;
    const shortLived = await new SignJWT({ sid: decodeJwt(tokens.access_token).sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(tokens.customer.id)
      .setIssuer("glide")
      .setAudience("shopper")
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(server.ctx.app.shopperKeys.jwt);
    const live = await ready(server.base, s, shortLived);
    const lasting = await ready(server.base, s, tokens.access_token);
    expect(await live.closing(5_000)).toEqual({ code: WS_CLOSE.unauthorized, reason: "access token expired" });
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
    expect(Date.now()).toBeLessThan(exp * 1000 + 1_000);
    expect(lasting.isOpen()).toBe(true);
    lasting.socket.close();
  });
});

for (const bus of await sharedBuses()) {
  describe.skipIf(!bus.available)(`the sign-in's end on instance A closes B's sockets, over ${bus.name}`, () => {
    let a: Awaited<ReturnType<typeof instance>>;
    let b: Awaited<ReturnType<typeof instance>>;
    beforeAll(async () => {
      a = await instance(server.ctx, server.secret, bus.env);
      b = await instance(server.ctx, server.secret, bus.env);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
    });

    it("sign-out on A closes the socket held on B with 4401", async () => {
      const tokens = await shopperTokens(a.app);
      const s = await enteredVisit(a.app, await server.newStore(), tokens.access_token);
      const onB = await ready(b.url, s, tokens.access_token);
      expect((await signOut(a.app, tokens.refresh_token)).statusCode).toBe(204);
      expect(await onB.closing()).toEqual({ code: WS_CLOSE.unauthorized, reason: "signed out" });
    });

    it("sign-out on A refuses the access token's requests on A at once and on B once B has heard of it", async () => {
      const tokens = await shopperTokens(a.app);
      const s = await enteredVisit(a.app, await server.newStore(), tokens.access_token);
      const readCart = (on: typeof a) =>
        on.app.inject({
          method: "GET",
          url: `/api/v1/cart/${s}`,
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
      // B has just asked the database and takes the sign-in as live for a while without asking again.
      expect((await readCart(b)).statusCode).toBe(200);
      expect((await readCart(a)).statusCode).toBe(200);
      const onB = await ready(b.url, s, tokens.access_token);
      expect((await signOut(a.app, tokens.refresh_token)).statusCode).toBe(204);
      expect((await readCart(a)).json()).toMatchObject({ code: "unauthorized" });
      expect(await onB.closing()).toEqual({ code: WS_CLOSE.unauthorized, reason: "signed out" });
      expect((await readCart(b)).json()).toMatchObject({ code: "unauthorized" });
    });

    it("a refresh token reused on A closes the socket held on B with 4401", async () => {
      const tokens = await shopperTokens(a.app);
      const s = await enteredVisit(a.app, await server.newStore(), tokens.access_token);
      expect((await refresh(a.app, tokens.refresh_token)).statusCode).toBe(200);
      const onB = await ready(b.url, s, tokens.access_token);
      await spentLongAgo(tokens.refresh_token);
      expect((await refresh(a.app, tokens.refresh_token)).json()).toMatchObject({ code: "refresh_token_reused" });
      expect(await onB.closing()).toEqual({ code: WS_CLOSE.unauthorized, reason: "signed out" });
    });
  });
}
