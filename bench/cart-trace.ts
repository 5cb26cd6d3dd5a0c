/**
 * Where a scan's time goes: the server's app built in this process on the
 * bench database, every statement its PostgreSQL clients send during one
 * `POST /api/v1/cart/scan` recorded with its round trip, then each
 * statement EXPLAIN ANALYZEd inside a transaction that is rolled back.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { SCAN_PATH, type Shop } from "./cart-setup.ts";
import { quantile } from "./steady.ts";

export type TracedStatement = {
  what: string;
  sql: string;
  /** Median round trip over the traced scans, ms: sent → answer, as the server's driver saw it. */
  roundTripMs: number;
  planningMs: number | null;
  executionMs: number | null;
  plan: string;
};

export type Trace = {
  scans: number;
  statements: TracedStatement[];
  /** Median of the whole request inside the process (app.inject: no network), ms. */
  requestMs: number;
  /** Median of the sum of the request's round trips, ms. */
  databaseMs: number;
};

type Sent = { sql: string; params: unknown[]; ms: number };
type Query = (...args: unknown[]) => unknown;

/** What each statement of a scan is for, by what it reads or writes. */
const PURPOSES: [RegExp, string][] = [
  [/shopper_refresh_tokens/, "the access token's sign-in is still live (requireShopper)"],
  [/pg_notify/, "the cart event to every instance (event bus)"],
  [
    /^with input as [\s\S]*insert into cart_items/,
    "the scan: its visit, product and prices, the line, the scan_id, the timeline event and the cart's version",
  ],
  [/from shopping_sessions/, "the visit with its store, the shopper's birth date and the modules"],
  [/product_barcodes/, "the product by barcode"],
  [/insert into cart_items/, "add one to the line (and record the scan_id)"],
  [/from cart_scans/, "has this scan_id been counted?"],
  [/from cart_items/, "the line as it now is"],
];
const purpose = (sql: string) => PURPOSES.find(([re]) => re.test(sql))?.[1] ?? sql.replace(/\s+/g, " ").slice(0, 60);

export async function traceScan(url: string, shop: Shop, scans = 21): Promise<Trace> {
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
    }),
  );
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  let recording: Sent[] | null = null;
  // Every client of the app's pool is a pg.Client: each call is one statement and one round trip.
  proto.query = function (this: unknown, ...args: unknown[]) {
    const log = recording;
    if (!log) return original.apply(this, args);
    const first = args[0] as string | { text: string; values?: unknown[] };
    const entry: Sent = {
      sql: typeof first === "string" ? first : first.text,
      // Drizzle sends a config object with the values beside it; pg-pool passes them through.
      params: (typeof first === "object" && first.values) || (Array.isArray(args[1]) ? (args[1] as unknown[]) : []),
      ms: 0,
    };
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
    const inject = async (method: "POST", url: string, payload: unknown, authorization?: string) => {
      const headers = authorization ? { authorization } : {};
      const res = await app.inject({ method, url, payload: payload as object, headers });
      if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json() as Record<string, string>;
    };
    // This app has its own key, so its shopper is a customer of its own, with visits of its own.
    const token = (await inject("POST", "/api/v1/auth/dev-login", {})).access_token!;
    const visits: string[] = [];
    for (let i = 0; i < scans; i++) {
      const entry = await inject("POST", "/api/v1/sessions/entry", { store_id: shop.storeId }, `Bearer ${token}`);
      await inject("POST", "/api/v1/sessions/door/scan", entry, `Device ${shop.doorKey}`);
      visits.push(entry.session_id!);
    }
    const scan = (i: number, scanId: string) => {
      const body = { session_id: visits[i % visits.length], barcode: shop.barcodes[(i * 7) % shop.barcodes.length] };
      return inject("POST", SCAN_PATH, { ...body, scan_id: scanId }, `Bearer ${token}`);
    };
    await scan(0, randomUUID());
    const runs: { sent: Sent[]; ms: number; scanId: string }[] = [];
    for (let i = 1; i <= scans; i++) {
      const sent: Sent[] = [];
      const scanId = randomUUID();
      recording = sent;
      const started = performance.now();
      await scan(i, scanId);
      runs.push({ sent, ms: performance.now() - started, scanId });
      recording = null;
    }
    const shape = runs[0]!.sent.map((s) => s.sql).join("\n");
    if (runs.some((r) => r.sent.map((s) => s.sql).join("\n") !== shape)) {
      throw new Error("the traced scans did not all send the same statements");
    }
    const median = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const statements: TracedStatement[] = [];
    for (const [i, s] of runs[0]!.sent.entries()) {
      const explained = await explain(url, s, runs[0]!.scanId);
      statements.push({
        what: purpose(s.sql),
        sql: s.sql.replace(/\s+/g, " ").trim(),
        roundTripMs: median(runs.map((r) => r.sent[i]!.ms)),
        ...explained,
      });
    }
    return {
      scans,
      statements,
      requestMs: median(runs.map((r) => r.ms)),
      databaseMs: median(runs.map((r) => r.sent.reduce((sum, s) => sum + s.ms, 0))),
    };
  } finally {
    recording = null;
    proto.query = original;
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
type Explained = { Plan: PlanNode; "Planning Time": number; "Execution Time": number };

/**
 * EXPLAIN ANALYZE of one statement as it was sent, in a transaction rolled
 * back, so nothing it writes stays. Its scan_id (a UUID parameter) is
 * replaced by a new one: the recorded one has been counted already.
 */
async function explain(
  url: string,
  s: Sent,
  scanId: string,
): Promise<Pick<TracedStatement, "planningMs" | "executionMs" | "plan">> {
  if (/^\s*(begin|commit|rollback)\b/i.test(s.sql)) return { planningMs: null, executionMs: null, plan: "–" };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const fresh = randomUUID();
    const params = s.params.map((p) => (p === scanId ? fresh : p));
    await client.query("begin");
    const text = `explain (analyze, buffers, format json) ${s.sql}`;
    const { rows } = await client.query(text, params);
    await client.query("rollback");
    const e = (rows[0] as { "QUERY PLAN": Explained[] })["QUERY PLAN"][0]!;
    return { planningMs: e["Planning Time"], executionMs: e["Execution Time"], plan: planSummary(e.Plan) };
  } finally {
    await client.end();
  }
}

/** The plan's nodes that read or write a table, in order. */
function planSummary(root: PlanNode): string {
  const parts: string[] = [];
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] || node["Index Name"]) {
      const on = node["Index Name"] ? `${node["Index Name"]}` : node["Relation Name"];
      parts.push(`${node["Node Type"]} ${on}`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root);
  return parts.length ? parts.join(", ") : root["Node Type"];
}
