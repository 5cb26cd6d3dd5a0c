import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AdminRole, DeviceKind } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { decodeJwt } from "jose";
import pg from "pg";
import pino from "pino";
import { expect, inject, vi } from "vitest";
import { type BuildOptions, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { type Database, type Db, openDatabase, pgliteImage, queryRows } from "../db/client.ts";
import { customers, shopperRefreshTokens, storeDeviceKeys } from "../db/schema/index.ts";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import { createAdmin } from "../features/admin-auth/admin-auth.service.ts";
import { SESSIONS_TOPIC, type SessionChange } from "../features/sessions/session-events.ts";
import { issueTokens } from "../features/shopper-auth/shopper-tokens.ts";
import { randomToken, sha256 } from "../platform/crypto.ts";

/** Set to run the HTTP suite on PostgreSQL; otherwise each file gets an in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export type TestContext = {
  app: FastifyInstance;
  database: Database;
  /** A database URL for this file's own database (PostgreSQL runs only). */
  databaseUrl: string | undefined;
  dataDir: string;
  close(): Promise<void>;
};

/** A fresh database of its own: a new PostgreSQL database, or an in-memory PGlite. */
/**
 * The migrated PGlite every test file of this worker starts from: made once
 * (Vitest keeps modules across the files of a worker), then each file's
 * database is a copy of it rather than an empty database migrated again.
 */
let pgliteTemplate: Promise<Blob> | undefined;

export async function freshDatabase(): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  const logger = pino({ level: "silent" });
  if (!TEST_DATABASE_URL) {
    pgliteTemplate ??= pgliteImage(logger);
    const database = await openDatabase({ logger, startFrom: await pgliteTemplate });
    return { database, drop: async () => {} };
  }
  const name = `glide_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  // Copied from the run's migrated template when there is one (test/postgres-template.ts), else migrated below.
  const template = inject("postgresTemplate");
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), logger, poolSize: 5 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function createTestContext(
  env: Record<string, string> = {},
  options: Omit<BuildOptions, "database"> = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "glide-test-"));
  // A stand-in page so the SPA fallback can be tested without building the web app.
  writeFileSync(path.join(dataDir, "index.html"), "<!doctype html><title>Glide test page</title>");
  const { database, url, drop } = await freshDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString("hex"),
    WEB_DIST: dataDir,
    ...env,
  });
  const app = await buildApp(config, { ...options, database });
  await app.ready();
  return {
    app,
    database,
    databaseUrl: url,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export const TEST_PASSWORD = "correct horse battery staple";

/** Creates an admin directly and signs in through the API; returns the session cookie. */
export async function signIn(
  app: FastifyInstance,
  role: AdminRole = "platform_admin",
  storeIds: string[] = [],
): Promise<{ cookie: string; email: string; id: string }> {
  const email = `admin${++counter}-${randomBytes(3).toString("hex")}@example.se`;
  const admin = await createAdmin({ db: app.db, email, password: TEST_PASSWORD, role, storeIds });
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/admin/login",
    payload: { email, password: TEST_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === ADMIN_COOKIE);
  if (!cookie) throw new Error("no session cookie");
  return { cookie: cookie.value, email, id: admin.id };
}

/** app.inject with the session cookie of `cookie` (or none). */
export function as(app: FastifyInstance, cookie: string | null) {
  const call = (method: InjectOptions["method"], url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload: payload as InjectOptions["payload"] } : {}),
      ...(cookie ? { cookies: { [ADMIN_COOKIE]: cookie } } : {}),
    });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, payload?: unknown) => call("POST", url, payload ?? {}),
    put: (url: string, payload?: unknown) => call("PUT", url, payload ?? {}),
    delete: (url: string) => call("DELETE", url),
  };
}

/**
 * A shopper of their own (a new customer row, as a BankID sign-in would
 * make) with real tokens; no DEV_TOOLS needed.
 */
export async function signInShopper(
  app: FastifyInstance,
  name = "Testa Testsson",
): Promise<{ customerId: string; accessToken: string; refreshToken: string }> {
  const tag = randomBytes(8).toString("hex");
  const [customer] = await app.db
    .insert(customers)
    .values({ personalNumberHash: `test-${tag}`, personalNumberSealed: `test-${tag}`, name, birthDate: "1990-01-01" })
    .returning();
  const tokens = await issueTokens(app.db, app.shopperKeys.jwt, customer!);
  return { customerId: customer!.id, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

/** Ends a shopper's sign-in behind the service's back: no event on the bus, as if an instance had missed it. */
export const revokeUnannounced = (app: FastifyInstance, accessToken: string) =>
  app.db
    .update(shopperRefreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(eq(shopperRefreshTokens.familyId, decodeJwt(accessToken).sid as string));

/** A device key for `storeId`, made directly; the value to send is `Device <key>`. */
export async function createDeviceKey(
  app: FastifyInstance,
  storeId: string,
  kind: DeviceKind = "door_scanner",
): Promise<{ id: string; key: string }> {
  const key = `gd_${randomToken(32)}`;
  const [row] = await app.db
    .insert(storeDeviceKeys)
    .values({ storeId, kind, keyHash: sha256(key) })
    .returning();
  return { id: row!.id, key };
}

/**
 * Resolves when exactly `n` statements in this database wait for a lock
 * (PostgreSQL only): how a race test knows a request stopped where it meant.
 * With `statement`, only waiting statements whose text contains it count, so a
 * background job that happens to wait on the same row does not.
 */
export function waitingForLocks(db: Db, n: number, statement?: string): Promise<void> {
  return expect
    .poll(
      async () =>
        (
          await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
                  and (${statement ?? null}::text is null or strpos(query, ${statement ?? null}::text) > 0)`,
          )
        )[0]!.n,
      { interval: 10, timeout: 10_000 },
    )
    .toBe(n);
}

/**
 * What the Sessions screens are told on the app's bus from now on, and a way
 * to know that everything sent so far has arrived.
 */
export async function listenToSessions(app: FastifyInstance) {
  await app.bus.ready();
  const seen: SessionChange[] = [];
  const stop = app.bus.subscribe(SESSIONS_TOPIC, (m) => seen.push(m as SessionChange));
  return {
    /** The changes told of one visit, of one kind or all. */
    of: (visit: string | null, kind?: string) =>
      seen.filter((m) => m.session_id === visit && (kind === undefined || m.kind === kind)),
    /** Resolves once a marker published now has come back: one channel, in order, so all before it came too. */
    async settle() {
      const marker = randomUUID();
      await app.bus.publish(SESSIONS_TOPIC, { store_id: null, session_id: marker, kind: "marker" });
      await vi.waitFor(() => expect(seen.some((m) => m.session_id === marker)).toBe(true), { timeout: 5000 });
    },
    stop,
  };
}

/**
 * Moves a visit straight to `state`, with the timestamps the service would
 * have written, for tests whose subject is what comes after (a visit through
 * the door, one that ended, one the sweep left unpaid). The moves themselves
 * are tested through the API and in visits/visit-state.test.ts.
 */
export async function putVisitIn(
  db: Db,
  sessionId: string,
  state: "in_store" | "ended_empty" | "left_unpaid" | "paid",
): Promise<void> {
  await db.execute(
    sql`update shopping_sessions set state = ${state},
          door_opened_at = coalesce(door_opened_at, now()), entry_used_at = coalesce(entry_used_at, now()),
          checked_out_at = case when ${state} in ('ended_empty', 'paid') then now() end,
          abandoned_at = case when ${state} = 'left_unpaid' then now() end
        where id = ${sessionId}`,
  );
}
