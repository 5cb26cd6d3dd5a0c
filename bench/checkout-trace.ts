/**
 * Where a checkout's time goes: the server's app built in this process on
 * the bench database, with the same payment simulator behind the relay;
 * every statement its PostgreSQL clients send during one
 * `POST /api/v1/checkout` recorded with its round trip, beside the
 * provider's round trips the relay timed.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { SCAN_PATH, type Shop } from "./cart-setup.ts";
import type { Outside } from "./checkout-provider.ts";
import { quantile } from "./steady.ts";

export type CheckoutStatement = { what: string; sql: string; roundTripMs: number };

export type CheckoutTrace = {
  checkouts: number;
  statements: CheckoutStatement[];
  /** Medians, ms: the whole request inside the process (app.inject: no network), its database round trips summed, its provider round trips summed. */
  requestMs: number;
  databaseMs: number;
  providerMs: number;
  providerCalls: number;
};

type Sent = { sql: string; ms: number };
type Query = (...args: unknown[]) => unknown;

/** What each statement of a checkout is for, by what it reads or writes. */
const PURPOSES: [RegExp, string][] = [
  [/^\s*begin/i, "begin"],
  [/^\s*commit/i, "commit"],
  [/^\s*rollback/i, "rollback"],
  [/shopper_refresh_tokens/, "the access token's sign-in is still live (requireShopper)"],
  [/order by state in \('in_store', 'charging'\) desc/, "the visit the exit is about (visits.ts latestVisit)"],
  [
    /from shopping_sessions where customer_id = \$1 and state in/,
    "every visit the shopper owes (visits.ts owingVisits)",
  ],
  [
    /from shopping_sessions s\s+join stores/,
    "the visit with its store and shopper, locked (the cart frozen from here)",
  ],
  [/exists \(select 1 from cart_items where session_id/, "is there anything in the cart?"],
  [/update shopping_sessions set state/, "the visit's new state (visit-state.ts)"],
  [/from orders where session_id = \$1 for update/, "the visit's order, if any, locked"],
  [/from cart_items i join products/, "the cart's lines with name and VAT rate"],
  [/insert into orders/, "the order (awaiting the charge)"],
  [/delete from order_lines/, "clear the order's lines (a retried checkout)"],
  [/insert into order_lines/, "the order's lines"],
  [/from shopping_sessions where id = \$1 for update/, "lock the visit again to record the outcome"],
  [/store_receipt_counters/, "the store's next receipt number"],
  [/update orders set state = 'paid'/, "the order paid, with card brand and last four"],
  [/update shopping_sessions set checked_out_at/, "the visit ends"],
  [/receipt_mail/, "the receipt e-mail into the outbox (if the shopper gave an e-mail)"],
  [/from orders where session_id = \$1$/, "the order as paid"],
  [/from orders where id = \$1 and state = 'paid'/, "the receipt's order"],
  [/from order_lines where order_id/, "the receipt's lines"],
];
const purpose = (sql: string) =>
  PURPOSES.find(([re]) => re.test(sql.replace(/\s+/g, " ").trim()))?.[1] ??
  sql.replace(/\s+/g, " ").trim().slice(0, 60);

export async function traceCheckout(url: string, shop: Shop, outside: Outside, lines: number, checkouts = 21) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-trace-"));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>bench</title>");
  const app = await buildApp(
    loadConfig({
      NODE_ENV: "production",
      LOG_LEVEL: "silent",
      DATA_DIR: dir,
      WEB_DIST: dir,
      DATABASE_URL: url,
      DEV_TOOLS: "true",
      SECRET_KEY: randomBytes(32).toString("base64url"),
      STRIPE_SECRET_KEY: outside.env.STRIPE_SECRET_KEY!,
      STRIPE_API_BASE: outside.env.STRIPE_API_BASE!,
    }),
  );
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  let recording: Sent[] | null = null;
  // Every client of the app's pool is a pg.Client: each call is one statement and one round trip.
  proto.query = function (this: unknown, ...args: unknown[]) {
    const log = recording;
    if (!log) return original.apply(this, args);
    const first = args[0] as string | { text: string };
    const entry: Sent = { sql: typeof first === "string" ? first : first.text, ms: 0 };
    log.push(entry);
    const started = performance.now();
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (...r: unknown[]) => void;
      args[last] = (...r: unknown[]) => {
        entry.ms = performance.now() - started;
        callback(...r);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown>;
    return result.finally(() => {
      entry.ms = performance.now() - started;
    });
  };
  try {
    await app.ready();
    const inject = async (method: "POST" | "PUT", url: string, payload: unknown, authorization?: string) => {
      const headers = authorization ? { authorization } : {};
      const res = await app.inject({ method, url, payload: payload as object, headers });
      if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json() as Record<string, unknown>;
    };
    // This app has its own key, so its shopper is a customer of its own, with a card of its own.
    const tokens = await inject("POST", "/api/v1/auth/dev-login", {});
    const auth = `Bearer ${tokens.access_token as string}`;
    const userId = (tokens.user as { id: string }).id;
    await inject("PUT", "/api/v1/payment-method", { payment_method: "pm_card_visa" }, auth);
    const runs: { sent: Sent[]; ms: number; providerMs: number; providerCalls: number }[] = [];
    // The first checkout warms the app up and is not kept.
    for (let i = 0; i <= checkouts; i++) {
      const entry = (await inject("POST", "/api/v1/sessions/entry", { store_id: shop.storeId }, auth)) as {
        session_id: string;
      };
      await inject("POST", "/api/v1/sessions/door/scan", entry, `Device ${shop.doorKey}`);
      for (let line = 0; line < lines; line++) {
        const barcode = shop.barcodes[(i * lines + line) % shop.barcodes.length];
        await inject("POST", SCAN_PATH, { session_id: entry.session_id, barcode, scan_id: randomUUID() }, auth);
      }
      const sent: Sent[] = [];
      recording = sent;
      const started = performance.now();
      const answer = await inject("POST", "/api/v1/checkout", { user_id: userId }, auth);
      const ended = performance.now();
      recording = null;
      if (answer.status !== "paid") throw new Error(`traced checkout answered ${JSON.stringify(answer)}`);
      const calls = outside.calls.filter((c) => c.start >= started && c.end <= ended);
      const providerMs = calls.reduce((sum, c) => sum + (c.end - c.start), 0);
      if (i > 0) runs.push({ sent, ms: ended - started, providerMs, providerCalls: calls.length });
    }
    const shape = runs[0]!.sent.map((s) => purpose(s.sql)).join("\n");
    if (runs.some((r) => r.sent.map((s) => purpose(s.sql)).join("\n") !== shape)) {
      throw new Error("the traced checkouts did not all send the same statements");
    }
    const median = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const statements = runs[0]!.sent.map((s, i) => ({
      what: purpose(s.sql),
      sql: s.sql.replace(/\s+/g, " ").trim(),
      roundTripMs: median(runs.map((r) => r.sent[i]!.ms)),
    }));
    return {
      checkouts,
      statements,
      requestMs: median(runs.map((r) => r.ms)),
      databaseMs: median(runs.map((r) => r.sent.reduce((sum, s) => sum + s.ms, 0))),
      providerMs: median(runs.map((r) => r.providerMs)),
      providerCalls: median(runs.map((r) => r.providerCalls)),
    } satisfies CheckoutTrace;
  } finally {
    recording = null;
    proto.query = original;
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
