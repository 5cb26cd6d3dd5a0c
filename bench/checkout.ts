/**
 * `POST /api/v1/checkout` on PostgreSQL with the provider's round trips to
 * the payment simulator: sequential checkouts of one shopper, checkouts of
 * many shoppers (signed in through the BankID simulator) at a steady rate,
 * the transactions a checkout makes and, traced, its statements and where
 * its time goes. Returns its section of bench/results.md
 * (bench/checkout-report.ts).
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { machineCpu, openVisits, post, prepareShop, quietCpu, SCAN_PATH, type Shop } from "./cart-setup.ts";
import { bankIdShopper, type Outside, type ProviderCall, type Shopper, startOutside } from "./checkout-provider.ts";
import { type CheckoutFigures, checkoutReport, type Latencies } from "./checkout-report.ts";
import { countRows, type Server, type Skipped, setting, waitIdle, withPostgres, withServer } from "./lib.ts";
import { quantile, steadyLoad } from "./steady.ts";

const CHECKOUT_PATH = "/api/v1/checkout";
const sequentialCount = setting("BENCH_CHECKOUT_COUNT", 200);
const linesPerCart = setting("BENCH_CHECKOUT_LINES", 5);
const shopperCount = setting("BENCH_CHECKOUT_SHOPPERS", 20);
const rounds = setting("BENCH_CHECKOUT_ROUNDS", 10);
const rate = setting("BENCH_CHECKOUT_RATE", 20);
const productCount = 200;
const WARMUP = 10;
/** Sign-ins one address may start per minute (the server's INIT_LIMIT). */
const SIGN_INS_PER_MINUTE = 30;

/** Seconds the checkout section may take before the bench gives up: a safety net, far above a normal run. */
export const checkoutTimeLimit = 600 + 2 * (sequentialCount + WARMUP + shopperCount * (rounds + 1)) + 60 * (rounds + 2);

export async function checkoutBench(): Promise<string> {
  const settings = { sequentialCount, linesPerCart, shopperCount, rounds, rate, productCount, warmup: WARMUP };
  if (shopperCount > SIGN_INS_PER_MINUTE)
    return checkoutReport({ skipped: `BENCH_CHECKOUT_SHOPPERS is at most ${SIGN_INS_PER_MINUTE}` }, settings);
  const measured = await withOutside((outside) =>
    withPostgres((url, version) =>
      withServer({ DATABASE_URL: url, DEV_TOOLS: "true", ...outside.env }, (server) =>
        checkoutCases(server, outside, url, version),
      ),
    ),
  ).catch((err: Error): Skipped => ({ skipped: err.message }));
  return checkoutReport(measured, settings);
}

async function withOutside<T>(use: (outside: Outside) => Promise<T>): Promise<T> {
  const outside = await startOutside();
  try {
    return await use(outside);
  } finally {
    await outside.close();
  }
}

/** A new visit of the shopper through the door, with `linesPerCart` different products scanned. */
async function readyVisit(base: string, shop: Shop, shopper: Shopper, k: number): Promise<string> {
  const [visit] = await openVisits(base, shop, shopper.token, 1);
  for (let line = 0; line < linesPerCart; line++) {
    const barcode = shop.barcodes[(k * linesPerCart + line) % shop.barcodes.length]!;
    await post(`${base}${SCAN_PATH}`, { session_id: visit, barcode, scan_id: randomUUID() }, `Bearer ${shopper.token}`);
  }
  return visit!;
}

async function checkoutOnce(base: string, shopper: Shopper): Promise<{ total: string; lines: number }> {
  const answer = (await post(`${base}${CHECKOUT_PATH}`, { user_id: shopper.id }, `Bearer ${shopper.token}`)) as {
    status: string;
    receipt: { total: string; items: unknown[] } | null;
  };
  if (answer.status !== "paid" || !answer.receipt) throw new Error(`checkout answered ${JSON.stringify(answer)}`);
  return { total: answer.receipt.total, lines: answer.receipt.items.length };
}

async function saveCard(base: string, shopper: Shopper): Promise<void> {
  const res = await fetch(`${base}/api/v1/payment-method`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${shopper.token}` },
    body: JSON.stringify({ payment_method: "pm_card_visa" }),
  });
  if (!res.ok) throw new Error(`PUT /api/v1/payment-method answered ${res.status}: ${await res.text()}`);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
function latencies(values: number[]): Latencies {
  const s = sorted(values);
  return {
    n: s.length,
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    p99: quantile(s, 0.99),
    max: quantile(s, 1),
  };
}

/** The provider calls that arrived in [from, to]. */
const callsIn = (calls: ProviderCall[], from: number, to: number) =>
  calls.filter((c) => c.start >= from && c.end <= to);

async function checkoutCases(server: Server, outside: Outside, url: string, version: string): Promise<CheckoutFigures> {
  const { base } = server;
  const shop = await prepareShop(server, productCount);
  const dev = (await post(`${base}/api/v1/auth/dev-login`, {})) as { access_token: string; user: { id: string } };
  const devShopper: Shopper = { id: dev.user.id, token: dev.access_token };
  await saveCard(base, devShopper);

  // (a) One shopper, one checkout at a time, each after a new visit and its scans (not timed).
  let k = 0;
  for (let i = 0; i < WARMUP; i++) {
    await readyVisit(base, shop, devShopper, k++);
    await checkoutOnce(base, devShopper);
  }
  await waitIdle(base);
  const busy = await quietCpu();
  const whole: number[] = [];
  const provider: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  const perCall = new Map<string, number[]>();
  let providerCalls = 0;
  const setupStarted = performance.now();
  let setupMs = 0;
  for (let i = 0; i < sequentialCount; i++) {
    const setupAt = performance.now();
    await readyVisit(base, shop, devShopper, k++);
    const started = performance.now();
    setupMs += started - setupAt;
    await checkoutOnce(base, devShopper);
    const ended = performance.now();
    const calls = callsIn(outside.calls, started, ended);
    whole.push(ended - started);
    providerCalls += calls.length;
    provider.push(calls.reduce((sum, c) => sum + (c.end - c.start), 0));
    if (calls.length) {
      before.push(calls[0]!.start - started);
      after.push(ended - calls[calls.length - 1]!.end);
    }
    for (const c of calls) perCall.set(c.what, [...(perCall.get(c.what) ?? []), c.end - c.start]);
  }
  const sequential = {
    busy,
    whole: latencies(whole),
    provider: latencies(provider),
    before: latencies(before),
    after: latencies(after),
    perCall: [...perCall].map(([what, ms]) => ({ what, ...latencies(ms) })),
    providerCallsPerCheckout: providerCalls / sequentialCount,
    seconds: (performance.now() - setupStarted) / 1000,
    setupSeconds: setupMs / 1000,
  };

  // (b) Many shoppers, signed in through BankID, each with a card on file.
  const signInStarted = performance.now();
  const shoppers: Shopper[] = [];
  for (let n = 0; n < shopperCount; n++) {
    const shopper = await bankIdShopper(base, outside.bankidControl, n);
    await saveCard(base, shopper);
    shoppers.push(shopper);
  }
  const signInSeconds = (performance.now() - signInStarted) / 1000;

  // Transactions per checkout: one visit ready per shopper, then their checkouts one at a time between two readings.
  for (const [n, shopper] of shoppers.entries()) await readyVisit(base, shop, shopper, n);
  const counted = await countTransactions(url, async () => {
    for (const shopper of shoppers) await checkoutOnce(base, shopper);
  });

  // Steady: each round readies one visit per shopper (not timed), then sends their checkouts `rate` per second.
  const steady: { whole: number[]; provider: number[] } = { whole: [], provider: [] };
  let sent = 0;
  let non2xx = 0;
  let errors = 0;
  let maxSendLag = 0;
  let roundBusy: number | null = null;
  const cpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [n, shopper] of shoppers.entries()) await readyVisit(base, shop, shopper, round * shopperCount + n);
    await waitIdle(base);
    const quiet = await quietCpu();
    if (quiet !== null) roundBusy = Math.max(roundBusy ?? 0, quiet);
    const from = performance.now();
    const machine = machineCpu();
    const r = await steadyLoad({
      base,
      rate,
      seconds: shopperCount / rate,
      next: (i) => ({
        path: CHECKOUT_PATH,
        headers: { authorization: `Bearer ${shoppers[i]!.token}` },
        body: JSON.stringify({ user_id: shoppers[i]!.id }),
      }),
    });
    const cores = machine();
    if (cores !== null) cpu.push(cores);
    steady.whole.push(...r.latencies);
    const calls = callsIn(outside.calls, from, performance.now());
    steady.provider.push(...calls.map((c) => c.end - c.start));
    sent += r.sent;
    non2xx += r.non2xx;
    errors += r.errors;
    maxSendLag = Math.max(maxSendLag, r.maxSendLag);
  }

  const orders = await paidOrders(url);
  const expected = WARMUP + sequentialCount + shopperCount + rounds * shopperCount - non2xx - errors;
  // Imported here: it loads the whole server into this process.
  const { traceCheckout } = await import("./checkout-trace.ts");
  const trace = await traceCheckout(url, shop, outside, linesPerCart);
  return {
    version,
    sequential,
    steady: {
      busy: roundBusy,
      whole: latencies(steady.whole),
      provider: latencies(steady.provider),
      sent,
      non2xx,
      errors,
      maxSendLag,
      cores: cpu.length ? cpu.reduce((a, b) => a + b, 0) / cpu.length : null,
    },
    signInSeconds,
    counted,
    trace,
    check: { orders, expected },
  };
}

/**
 * The database's transactions (`xact_commit + xact_rollback`) over `work`. A
 * backend reports its counts within about 10 s of going idle, hence the
 * waits; the reading client's own two statements are taken off.
 */
async function countTransactions(
  url: string,
  work: () => Promise<void>,
): Promise<{ checkouts: number; perCheckout: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const read = async () => {
    await sleep(11_000);
    await client.query("select pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ n: string }>(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()",
    );
    return Number(rows[0]!.n);
  };
  try {
    const before = await read();
    await work();
    const after = await read();
    return { checkouts: shopperCount, perCheckout: (after - before - 2) / shopperCount };
  } finally {
    await client.end();
  }
}

const paidOrders = (url: string) => countRows(url, "select count(*)::int as n from orders where state = 'paid'");
