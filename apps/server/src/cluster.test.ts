import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { gtinCheckDigit } from "@glide/contracts";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows, sql } from "./db/client.ts";
import { customers } from "./db/schema/index.ts";
import { issueTokens } from "./features/shopper-auth/shopper-tokens.ts";
import { deriveKey } from "./platform/crypto.ts";
import { roundSlackMs } from "./platform/housekeeping.ts";
import {
  type Balancer,
  emptyDatabase,
  freePort,
  haproxyInstalled,
  type Instance,
  openCart,
  requestFrom,
  startInstance,
  startProxy,
  waitReady,
} from "./test/cluster.ts";
import { TEST_DATABASE_URL } from "./test/harness.ts";
import { type PaymentHarness, startPaymentHarness } from "./test/payments.ts";
import { type SmtpSink, startSmtpSink } from "./test/smtp-sink.ts";

/**
 * The service as a chain runs it: three server processes on one PostgreSQL
 * database and one Redis, started at once on an empty database, behind
 * HAProxy (Debian's package, which `npm test` installs like Chromium). What
 * one instance does, the others see; a rolling restart under load fails no
 * request and loses no scan; the instances see the shopper's address, not
 * the proxy's. PostgreSQL only: PGlite is one process.
 */
const NAMES = ["a", "b", "c"] as const;
const SECRET = randomBytes(32).toString("base64url");
const ADMIN = { email: "cluster-admin@example.se", password: "a cluster admin password" };
/** How long a stopping instance keeps serving while HAProxy (checking every 200 ms) takes it out. */
const DRAIN_MS = 1_000;
/** The camera health check's interval here (the shortest the setting allows), so the run sees several rounds. */
const HEALTH_INTERVAL_S = 10;

let payments: PaymentHarness;
let mails: SmtpSink;
let database: { url: string; drop: () => Promise<void> };
let db: Database;
let env: Record<string, string>;
const instances = new Map<string, Instance>();
let proxy: Balancer;
let base: string;
let cookie: string;
let doorKeys: string[];
let stores: string[];
let barcodes: string[];
/** When the camera health interval was shortened, and the rounds claimed by then. */
let healthFrom: { at: number; rounds: number };

/** Rounds of a background job claimed so far, by whichever instance (platform/housekeeping.ts, claimRound). */
const roundsOf = async (job: string) =>
  (await queryRows<{ rounds: number }>(db.db, sql`select rounds from job_rounds where job = ${job}`))[0]?.rounds ?? 0;

type Answer = { status: number; body: unknown; servedBy: string | null };

/** A call through the proxy. */
async function call(method: string, path: string, opts: { json?: unknown; auth?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  if (opts.auth) headers.authorization = opts.auth;
  else if (cookie) headers.cookie = cookie;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, servedBy: res.headers.get("x-served-by") };
}

async function ok(method: string, path: string, opts: { json?: unknown; auth?: string } = {}) {
  const answer = await call(method, path, opts);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A shopper of our own with a card on file, signed in as BankID would sign them in. */
async function newShopper(): Promise<{ id: string; auth: string; email: string }> {
  const tag = randomBytes(6).toString("hex");
  const [customer] = await db.db
    .insert(customers)
    .values({
      personalNumberHash: `cl-${tag}`,
      personalNumberSealed: `cl-${tag}`,
      email: `kund-${tag}@example.se`,
      name: "Klas Kluster",
      birthDate: "1980-01-01",
    })
    .returning();
  const { access_token } = await issueTokens(db.db, deriveKey(SECRET, "shopper-jwt"), customer!);
  const auth = `Bearer ${access_token}`;
  await ok("PUT", "/api/v1/payment-method", { json: { payment_method: "pm_card_visa" }, auth });
  return { id: customer!.id, auth, email: customer!.email! };
}

/** Through the door of store `index`: the visit's id. */
async function enter(who: { auth: string }, index: number): Promise<string> {
  const entry = (await ok("POST", "/api/v1/sessions/entry", { json: { store_id: stores[index] }, auth: who.auth }))
    .body as { session_id: string };
  await ok("POST", "/api/v1/sessions/door/scan", { json: entry, auth: `Device ${doorKeys[index]}` });
  return entry.session_id;
}

const scanBody = (visit: string, barcode: string) => ({ session_id: visit, barcode, scan_id: randomUUID() });

async function startAll(): Promise<void> {
  for (const name of NAMES) instances.set(name, startInstance(name, await freePort(), env));
  await Promise.all([...instances.values()].map((instance) => waitReady(instance)));
}

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  if (!haproxyInstalled())
    throw new Error("HAProxy is missing: `sudo apt-get install -y haproxy` (npm test does it as root)");
  payments = await startPaymentHarness();
  mails = await startSmtpSink();
  database = await emptyDatabase(TEST_DATABASE_URL);
  env = {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url,
    REDIS_URL: "redis://127.0.0.1:6379",
    SECRET_KEY: SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DEMO_DATA: "false",
    TRUST_PROXY: "127.0.0.1",
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    STRIPE_SECRET_KEY: payments.simulator.secretKey,
    STRIPE_API_BASE: payments.apiBase,
    SMTP_URL: mails.url,
  };
  // All three at once on an empty database: one migrates, the others wait for it.
  await startAll();
  proxy = await startProxy([...instances.values()].map(({ name, port }) => ({ name, port })));
  base = `http://127.0.0.1:${proxy.port}`;
  db = await openDatabase({ databaseUrl: database.url, logger: pino({ level: "silent" }), poolSize: 2 });

  const login = await fetch(`${base}/api/v1/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  stores = [];
  doorKeys = [];
  for (let i = 0; i < 3; i++) {
    const store = (await ok("POST", "/api/v1/stores/", { json: { name: `Klusterbutiken ${i + 1}` } })).body as {
      id: string;
    };
    stores.push(store.id);
    const key = await ok("POST", `/api/v1/stores/${store.id}/device-keys`, { json: { kind: "door_scanner" } });
    doorKeys.push((key.body as { key: string }).key);
  }
  await ok("PUT", "/api/v1/settings/camera/health_check_interval", { json: { value: HEALTH_INTERVAL_S } });
  healthFrom = { at: Date.now(), rounds: await roundsOf("camera health") };
  barcodes = [];
  for (let i = 0; i < 5; i++) {
    const barcode = `73100000${String(i).padStart(4, "0")}`;
    const code = barcode + gtinCheckDigit(barcode);
    await ok("POST", "/api/v1/products/", {
      json: { sku: `cluster-${i}`, name: `Klustervara ${i}`, price: 10 + i, barcode: code },
    });
    barcodes.push(code);
  }
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(
    [...instances.values()].map(async (instance) => {
      instance.child.kill("SIGTERM");
      await instance.exited;
    }),
  );
  await db?.close();
  await database?.drop();
  await payments?.close();
  await mails?.close();
});

describe.skipIf(!TEST_DATABASE_URL)("three instances behind HAProxy", () => {
  it("an admin's sign-in holds on every instance, and the instances see the client's address, not the proxy's", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const answer = await ok("GET", "/api/v1/stores/");
      expect((answer.body as unknown[]).length).toBe(3);
      seen.add(answer.servedBy ?? "");
    }
    expect([...seen].sort()).toEqual([...NAMES]);

    // A sign-in from 127.0.0.7: the session keeps that address, and its rate limit counts it, not 127.0.0.1.
    const from = await requestFrom("127.0.0.7", `${base}/api/v1/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(from.status, from.body).toBe(200);
    const [session] = await queryRows<{ ip: string }>(
      db.db,
      sql`select ip from admin_sessions order by created_at desc limit 1`,
    );
    expect(session?.ip).toBe("127.0.0.7");
  });

  it("a visit goes from entry to receipt while its requests land on every instance; a live cart on one hears scans made on the others", async () => {
    const who = await newShopper();
    const visit = await enter(who, 0);
    const socket = await openCart(base, visit, who.auth);
    const servedBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const answer = await ok("POST", "/api/v1/cart/scan", { json: scanBody(visit, barcodes[i % 2]!), auth: who.auth });
      servedBy.add(answer.servedBy ?? "");
    }
    expect(servedBy.size).toBe(3);
    await socket.until((cart) => cart.items.reduce((n, item) => n + item.quantity, 0) === 6);
    socket.close();

    // Checkouts sent at once land on all three instances: one charge, one receipt.
    const answers = await Promise.all(
      Array.from({ length: 9 }, () => ok("POST", "/api/v1/checkout", { json: { user_id: who.id }, auth: who.auth })),
    );
    expect(new Set(answers.map((a) => a.servedBy)).size).toBe(3);
    expect(new Set(answers.map((a) => (a.body as { receipt: { id: string } }).receipt.id)).size).toBe(1);
    const orders = await queryRows<{ state: string; total_ore: number }>(
      db.db,
      sql`select state, total_ore from orders where session_id = ${visit}`,
    );
    expect(orders).toEqual([{ state: "paid", total_ore: 6_300 }]);
  });

  it("a rolling restart under steady load fails no request, loses no scan, and every live cart is back within 2 s", async () => {
    const failures: string[] = [];
    let requests = 0;
    let running = true;
    const attempt = async (what: string, run: () => Promise<Answer>): Promise<Answer | null> => {
      requests++;
      try {
        const answer = await run();
        if (answer.status >= 300) failures.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.status < 300 ? answer : null;
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message}`);
        return null;
      }
    };

    // Long visits with a live cart each, scanned all along; paid at the end.
    const long = await Promise.all(
      [0, 1, 2].map(async (store) => {
        const who = await newShopper();
        const visit = await enter(who, store);
        return { who, visit, scanned: 0, socket: await openCart(base, visit, who.auth) };
      }),
    );
    const scanning = long.map(async (shopper) => {
      while (running) {
        const answer = await attempt("scan", () =>
          call("POST", "/api/v1/cart/scan", { json: scanBody(shopper.visit, barcodes[0]!), auth: shopper.who.auth }),
        );
        if (answer) shopper.scanned++;
        await sleep(20);
      }
    });
    // Whole visits, one after another: in, two scans, paid, the receipt's lines what was scanned.
    const roundShoppers = await Promise.all([newShopper(), newShopper()]);
    const rounds = [0, 1].map(async (store) => {
      const who = roundShoppers[store]!;
      let paid = 0;
      while (running) {
        const entry = await attempt("entry", () =>
          call("POST", "/api/v1/sessions/entry", { json: { store_id: stores[store] }, auth: who.auth }),
        );
        if (!entry) continue;
        const door = await attempt("door", () =>
          call("POST", "/api/v1/sessions/door/scan", { json: entry.body, auth: `Device ${doorKeys[store]}` }),
        );
        if (!door) continue;
        const visit = (entry.body as { session_id: string }).session_id;
        let scanned = 0;
        for (const barcode of [barcodes[1]!, barcodes[2]!]) {
          if (
            await attempt("scan", () =>
              call("POST", "/api/v1/cart/scan", { json: scanBody(visit, barcode), auth: who.auth }),
            )
          )
            scanned++;
        }
        const paidAnswer = await attempt("checkout", () =>
          call("POST", "/api/v1/checkout", { json: { user_id: who.id }, auth: who.auth }),
        );
        const receipt = (paidAnswer?.body as { receipt?: { items: { quantity: number }[] } } | undefined)?.receipt;
        if (receipt) {
          expect(receipt.items.reduce((n, item) => n + item.quantity, 0)).toBe(scanned);
          paid++;
        }
      }
      return paid;
    });
    const reads = (async () => {
      while (running) {
        await attempt("console read", () => call("GET", "/api/v1/stores/"));
        await sleep(10);
      }
    })();

    await sleep(1_000);
    for (const name of NAMES) {
      const old = instances.get(name)!;
      old.child.kill("SIGTERM");
      expect(await old.exited, old.output()).toBe(0);
      const fresh = startInstance(name, old.port, env);
      instances.set(name, fresh);
      await waitReady(fresh);
      // HAProxy takes it back at its next check.
      await sleep(600);
    }
    await sleep(1_000);
    running = false;
    await Promise.all([...scanning, reads]);
    const paid = await Promise.all(rounds);

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    expect(paid.every((n) => n > 0)).toBe(true);
    // The mail outbox runs on every instance, each kicked by its own checkouts: one kvitto per paid visit.
    const mailsTo = (who: { email: string }) => mails.messages.filter((mail) => mail.envelopeTo.includes(who.email));
    const deadline = Date.now() + 30_000;
    while (roundShoppers.some((who, i) => mailsTo(who).length < paid[i]!) && Date.now() < deadline) await sleep(100);
    await sleep(1_000);
    expect(roundShoppers.map(mailsTo).map((sent) => sent.length)).toEqual(paid);
    for (const shopper of long) {
      // No scan lost: the cart holds every scan that was answered, and its live cart says so too.
      const [line] = await queryRows<{ quantity: number }>(
        db.db,
        sql`select coalesce(sum(quantity), 0)::int as quantity from cart_items where session_id = ${shopper.visit}`,
      );
      expect(line?.quantity).toBe(shopper.scanned);
      await shopper.socket.until((cart) => cart.items.reduce((n, item) => n + item.quantity, 0) === shopper.scanned);
      expect(shopper.socket.restarts()).toBeGreaterThan(0);
      expect(Math.max(...shopper.socket.gaps())).toBeLessThan(2_000);
      shopper.socket.close();
    }
  }, 180_000);

  it("the camera health check's timed round runs once per interval across the three instances, not once on each", async () => {
    // Every instance's camera health timer looks every 5 s whether a round is due; three instances without a
    // shared claim would run three rounds per interval. Instances restarted above start their own timers afresh.
    const interval = HEALTH_INTERVAL_S * 1000;
    await sleep(Math.max(0, 2.5 * interval - (Date.now() - healthFrom.at)));
    const elapsed = Date.now() - healthFrom.at;
    const rounds = (await roundsOf("camera health")) - healthFrom.rounds;
    expect(rounds).toBeGreaterThanOrEqual(1);
    expect(rounds).toBeLessThanOrEqual(Math.ceil(elapsed / (interval - roundSlackMs(interval))) + 1);
  });
});
