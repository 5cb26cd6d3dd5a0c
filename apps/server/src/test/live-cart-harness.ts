import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { gtinCheckDigit } from "@glide/contracts";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { customers } from "../db/schema/index.ts";
import { issueTokens } from "../features/shopper-auth/shopper-tokens.ts";
import { as, createTestContext, putVisitIn, signIn, TEST_DATABASE_URL, type TestContext } from "./harness.ts";

/** What the live cart's tests (features/cart/cart.socket*.test.ts) share: a phone's socket, visits, instances. */

export type Message = { type: string; [key: string]: unknown };
export type LiveSocket = Awaited<ReturnType<typeof connect>>;

export const MILK = `731000000201${gtinCheckDigit("731000000201")}`;

/** A socket that collects what it is sent, and how it closed. */
export async function connect(url: string, first?: object) {
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
  /** Resolves once `count` messages have arrived (or the socket closed), within `ms`. */
  const until = async (count: number, ms = 5_000) => {
    const deadline = Date.now() + ms;
    while (messages.length < count && !closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return messages;
  };
  /** How it closed, once it has (null if it is still open after `ms`). */
  const closing = async (ms = 5_000) => {
    await until(Number.POSITIVE_INFINITY, ms);
    return closed as { code: number; reason: string } | null;
  };
  return { socket, messages, until, closing, isOpen: () => closed === null };
}

/** A shopper of their own with a real token pair (one sign-in). */
export async function shopperTokens(app: FastifyInstance) {
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
  return { customer: customer!, ...(await issueTokens(app.db, app.shopperKeys.jwt, customer!)) };
}

/**
 * Milk in the product range, and a maker of stores. A shopper has one open
 * visit per store, so each visit a test needs apart from another is made in
 * a store of its own.
 */
export async function liveShop(app: FastifyInstance): Promise<{ newStore(): Promise<string> }> {
  const admin = as(app, (await signIn(app)).cookie);
  await admin.post("/api/v1/products/", { sku: "ws-milk", name: "Mjölk", price: 17.9, barcode: MILK });
  return { newStore: async () => (await admin.post("/api/v1/stores/", { name: "Live" })).json().id as string };
}

/** A visit of the token's shopper in `store`, through the door. */
export async function enteredVisit(app: FastifyInstance, store: string, token: string): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/sessions/entry",
    headers: { authorization: `Bearer ${token}` },
    payload: { store_id: store },
  });
  const id = res.json().session_id as string;
  await putVisitIn(app.db, id, "in_store");
  return id;
}

export const scan = (app: FastifyInstance, token: string, sessionId: string) =>
  app.inject({
    method: "POST",
    url: "/api/v1/cart/scan",
    headers: { authorization: `Bearer ${token}` },
    payload: { session_id: sessionId, barcode: MILK },
  });

export const signOut = (app: FastifyInstance, refreshToken: string) =>
  app.inject({ method: "POST", url: "/api/v1/auth/logout", payload: { refresh_token: refreshToken } });

export const refresh = (app: FastifyInstance, refreshToken: string) =>
  app.inject({ method: "POST", url: "/api/v1/auth/refresh", payload: { refresh_token: refreshToken } });

/** The address of /ws/cart on an app that listens. */
export const socketUrl = (app: FastifyInstance) =>
  `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws/cart`;

/** The first message a socket sends: the access token. */
export const auth = (token: string) => ({ type: "auth", access_token: token });

/**
 * A test file's server: an app on a fresh database with the live shop, listening on loopback, made before the
 * file's tests and closed after them. Its fields are there once the tests run.
 */
export function liveCartServer() {
  const server = {
    secret: randomBytes(32).toString("hex"),
    ctx: undefined as unknown as TestContext,
    /** The socket's address, ws://…/ws/cart. */
    base: "",
    newStore: (): Promise<string> => Promise.reject(new Error("the server is not up yet")),
    /** A new shopper's access token. */
    shopper: async () => (await shopperTokens(server.ctx.app)).access_token,
    /** A visit of the token's shopper in a new store, through the door. */
    visitOf: async (token: string) => enteredVisit(server.ctx.app, await server.newStore(), token),
  };
  beforeAll(async () => {
    server.ctx = await createTestContext({ SECRET_KEY: server.secret });
    ({ newStore: server.newStore } = await liveShop(server.ctx.app));
    await server.ctx.app.listen({ port: 0, host: "127.0.0.1" });
    server.base = socketUrl(server.ctx.app);
  });
  afterAll(() => server.ctx.close());
  return server;
}

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function redisAvailable(): Promise<boolean> {
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

/** The event buses two instances can share: both need PostgreSQL; Redis only when it answers. */
export async function sharedBuses(): Promise<{ name: string; env: Record<string, string>; available: boolean }[]> {
  return [
    { name: "PostgreSQL LISTEN/NOTIFY", env: {}, available: !!TEST_DATABASE_URL },
    { name: "Redis pub/sub", env: { REDIS_URL }, available: !!TEST_DATABASE_URL && (await redisAvailable()) },
  ];
}

/**
 * Another instance of the server on the test context's database with the
 * same secret key, as a second process behind a load balancer would be.
 */
export async function instance(ctx: TestContext, secret: string, env: Record<string, string>) {
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
    url: socketUrl(app),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Every statement the app sends outside a transaction from now until stop(), as its SQL text; the first that
 * `failing` matches the database refuses, as it would a statement on a connection that broke.
 */
export function recordStatements(app: FastifyInstance, failing?: RegExp) {
  type Query = (...args: unknown[]) => unknown;
  // The driver under Drizzle (a pg pool, or PGlite): statements outside a transaction are its query() calls.
  const client = (app.db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  const sent: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    const text = typeof first === "string" ? first : first.text;
    sent.push(text);
    if (failing?.test(text)) {
      failing = undefined;
      return Promise.reject(new Error("Connection terminated unexpectedly"));
    }
    return original.apply(this, args);
  };
  return { sent, stop: () => (client.query = original) };
}
