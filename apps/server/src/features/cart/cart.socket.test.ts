import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { customers } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, TEST_DATABASE_URL, type TestContext } from "../../test/harness.ts";
import { issueTokens } from "../shopper-auth/shopper-tokens.ts";

const secret = randomBytes(32).toString("hex");
let ctx: TestContext;
let base: string;
let store: string;
const milk = `731000000201${gtinCheckDigit("731000000201")}`;

type Message = { type: string; [key: string]: unknown };

/** A socket that collects what it is sent, and how it closed. */
async function connect(url: string, first?: object) {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  let closed: { code: number; reason: string } | null = null;
  socket.addEventListener("message", (e) => {
    messages.push(JSON.parse(String(e.data)) as Message);
    for (const w of waiters.splice(0)) w();
  });
  socket.addEventListener("close", (e) => {
    closed = { code: e.code, reason: e.reason };
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error("could not connect")), { once: true });
  });
  if (first) socket.send(JSON.stringify(first));
  /** Resolves once `count` messages have arrived (or the socket closed), within 5 s. */
  const until = async (count: number) => {
    const deadline = Date.now() + 5_000;
    while (messages.length < count && !closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return messages;
  };
  const closing = async () => {
    await until(Number.POSITIVE_INFINITY);
    return closed;
  };
  return { socket, messages, until, closing };
}

async function shopper(app: FastifyInstance) {
  return (await shopperTokens(app)).access_token;
}

async function shopperTokens(app: FastifyInstance) {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await app.db
    .insert(customers)
    .values({
      personalNumberHash: `ws-${tag}`,
      personalNumberSealed: `ws-${tag}`,
      name: "Sam",
      birthDate: "1990-01-01",
    })
    .returning();
  return issueTokens(app.db, app.shopperKeys.jwt, customer!);
}

async function enteredVisit(app: FastifyInstance, token: string): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: { authorization: `Bearer ${token}` },
    payload: { store_id: store },
  });
  const id = res.json().session_id as string;
  await app.db.execute(sql`update shopping_sessions set door_opened_at = now() where id = ${id}`);
  return id;
}

const scan = (app: FastifyInstance, token: string, sessionId: string) =>
  app.inject({
    method: "POST",
    url: "/api/v1/cart/scan",
    headers: { authorization: `Bearer ${token}` },
    payload: { session_id: sessionId, barcode: milk },
  });

beforeAll(async () => {
  ctx = await createTestContext({ SECRET_KEY: secret });
  const admin = as(ctx.app, (await signIn(ctx.app)).cookie);
  store = (await admin.post("/api/v1/stores/", { name: "Live" })).json().id;
  await admin.post("/api/v1/products/", { sku: "ws-milk", name: "Mjölk", price: 17.9, barcode: milk });
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  base = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/ws/cart`;
});
afterAll(() => ctx.close());

describe("/ws/cart", () => {
  it("answers ready with the cart, then pushes each change with the whole cart after it", async () => {
    const token = await shopper(ctx.app);
    const s = await enteredVisit(ctx.app, token);
    await scan(ctx.app, token, s);
    const live = await connect(`${base}?session_id=${s}`, { type: "auth", access_token: token });
    const [ready] = await live.until(1);
    expect(ready).toMatchObject({ type: "ready", cart: { total: 17.9 } });

    const scanned = await scan(ctx.app, token, s);
    const itemId = scanned.json().item.id as string;
    const afterScan = await live.until(3);
    expect(afterScan[1]).toEqual({
      type: "product_added",
      product: { id: scanned.json().product.id, name: "Mjölk", image_url: null, price: 17.9 },
    });
    expect(afterScan[2]).toMatchObject({ type: "cart_updated", cart: { total: 35.8, items: [{ quantity: 2 }] } });

    await ctx.app.inject({
      method: "DELETE",
      url: `/api/v1/cart/item/${itemId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const afterDelete = await live.until(5);
    expect(afterDelete[3]).toEqual({ type: "product_removed", product_id: scanned.json().product.id });
    expect(afterDelete[4]).toMatchObject({ type: "cart_updated", cart: { items: [], total: 0 } });
    live.socket.close();
  });

  it("closes with 4401 without a valid token first, and with 4403 for another shopper's visit", async () => {
    const token = await shopper(ctx.app);
    const s = await enteredVisit(ctx.app, token);
    const forged = await connect(`${base}?session_id=${s}`, { type: "auth", access_token: `${token}x` });
    expect((await forged.closing())?.code).toBe(4401);
    const wrongType = await connect(`${base}?session_id=${s}`, { type: "hello", access_token: token });
    expect((await wrongType.closing())?.code).toBe(4401);
    const notJson = await connect(`${base}?session_id=${s}`);
    notJson.socket.send("{");
    expect((await notJson.closing())?.code).toBe(4401);
    const other = await connect(`${base}?session_id=${s}`, { type: "auth", access_token: await shopper(ctx.app) });
    expect((await other.closing())?.code).toBe(4403);
    expect(other.messages).toEqual([]);
    const bad = await connect(`${base}?session_id=nope`);
    expect((await bad.closing())?.code).toBe(4400);
  });

  it("refuses a token whose sign-in has ended", async () => {
    const tokens = await shopperTokens(ctx.app);
    const s = await enteredVisit(ctx.app, tokens.access_token);
    const out = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(out.statusCode).toBe(204);
    const live = await connect(`${base}?session_id=${s}`, { type: "auth", access_token: tokens.access_token });
    expect((await live.closing())?.code).toBe(4401);
  });

  it("sends nothing of one visit to another visit's socket", async () => {
    const token = await shopper(ctx.app);
    const mine = await enteredVisit(ctx.app, token);
    const theirs = await enteredVisit(ctx.app, token);
    const live = await connect(`${base}?session_id=${mine}`, { type: "auth", access_token: token });
    await live.until(1);
    await scan(ctx.app, token, theirs);
    await scan(ctx.app, token, mine);
    const messages = await live.until(3);
    expect(messages.slice(1).map((m) => m.type)).toEqual(["product_added", "cart_updated"]);
    expect(messages[2]).toMatchObject({ cart: { session_id: mine, items: [{ quantity: 1 }] } });
    live.socket.close();
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAvailable(): Promise<boolean> {
  const { Redis } = await import("ioredis");
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Another instance of the server on the test database, as a second process behind a load balancer would be. */
async function instance(env: Record<string, string>) {
  const logger = pino({ level: "silent" });
  const database = await openDatabase({ databaseUrl: ctx.databaseUrl, logger, poolSize: 3 });
  const app = await buildApp(
    loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      SECRET_KEY: secret,
      DATA_DIR: ctx.dataDir,
      WEB_DIST: ctx.dataDir,
      ...env,
    }),
    { database },
  );
  await app.listen({ port: 0, host: "127.0.0.1" });
  await app.bus.ready();
  return {
    app,
    url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws/cart`,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

const buses: { name: string; env: Record<string, string>; available: boolean }[] = [
  { name: "PostgreSQL LISTEN/NOTIFY", env: {}, available: !!TEST_DATABASE_URL },
  { name: "Redis pub/sub", env: { REDIS_URL }, available: !!TEST_DATABASE_URL && (await redisAvailable()) },
];

for (const bus of buses) {
  describe.skipIf(!bus.available)(`two instances on one PostgreSQL, events over ${bus.name}`, () => {
    it("a scan served by instance A reaches a socket held by instance B, and only that visit's", async () => {
      const a = await instance(bus.env);
      const b = await instance(bus.env);
      try {
        const token = await shopper(a.app);
        const s = await enteredVisit(a.app, token);
        const other = await enteredVisit(a.app, token);
        const onB = await connect(`${b.url}?session_id=${s}`, { type: "auth", access_token: token });
        const otherOnB = await connect(`${b.url}?session_id=${other}`, { type: "auth", access_token: token });
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
