/** The checkout section of bench/results.md, from bench/checkout.ts's figures. */
import { QUIET_CPU } from "./cart-setup.ts";
import type { CheckoutTrace } from "./checkout-trace.ts";
import { HOST, type Skipped } from "./lib.ts";

export type Latencies = { n: number; p50: number; p95: number; p99: number; max: number };

export type CheckoutFigures = {
  version: string;
  sequential: {
    busy: number | null;
    whole: Latencies;
    /** Per checkout, the provider's round trips summed. */
    provider: Latencies;
    /** From the request's start to the first provider call, and from the last provider answer to the checkout's answer. */
    before: Latencies;
    after: Latencies;
    perCall: ({ what: string } & Latencies)[];
    providerCallsPerCheckout: number;
    seconds: number;
    setupSeconds: number;
  };
  steady: {
    busy: number | null;
    whole: Latencies;
    /** Each provider round trip on its own. */
    provider: Latencies;
    sent: number;
    non2xx: number;
    errors: number;
    maxSendLag: number;
    cores: number | null;
  };
  signInSeconds: number;
  counted: { checkouts: number; perCheckout: number };
  trace: CheckoutTrace;
  check: { orders: number; expected: number };
};

type Settings = {
  sequentialCount: number;
  linesPerCart: number;
  shopperCount: number;
  rounds: number;
  rate: number;
  productCount: number;
  warmup: number;
};

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "–" : v.toFixed(1));
const row = (name: string, l: Latencies) =>
  `| ${name} | ${l.n} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${ms(l.max)} |`;

export function checkoutReport(measured: CheckoutFigures | Skipped, s: Settings): string {
  const title = "## Checkout: `POST /api/v1/checkout` on PostgreSQL with the payment simulator";
  const budget =
    "No budget is set for checkout (issue 9 asks for its p50/p99, not a limit); the figures are for comparison between runs.";
  if ("skipped" in measured) return `${title}\n\n${budget}\n\nNot measured: ${measured.skipped}\n`;
  const { sequential: a, steady: b, trace, counted, check } = measured;
  const database = trace.databaseMs;
  const server = Math.max(0, trace.requestMs - trace.databaseMs - trace.providerMs);
  const share = (v: number) => `${Math.round((100 * v) / trace.requestMs)} %`;
  const statements = trace.statements.map((t, i) => `| ${i + 1} | ${t.what} | ${ms(t.roundTripMs)} |`);
  const sql = trace.statements.map((t, i) => `${i + 1}. \`${t.sql.replace(/`/g, "'")}\``).join("\n");
  const inTransactions = trace.statements.filter((t) => t.what === "begin").length;

  return `${title}

${budget}

- **One shopper, one checkout at a time** (${a.whole.n} checkouts, each of a new visit with ${s.linesPerCart} lines): p50 **${ms(a.whole.p50)} ms**, p95 ${ms(a.whole.p95)} ms, p99 **${ms(a.whole.p99)} ms**. Of that, the provider's round trips (${a.providerCallsPerCheckout.toFixed(1)} per checkout: authorize, then capture) took ${ms(a.provider.p50)} ms at the median (p99 ${ms(a.provider.p99)} ms).
- **${s.shopperCount} shoppers at a steady ${s.rate} checkouts/s** (${b.whole.n} checkouts over ${s.rounds} rounds; each shopper pays for a new visit every round): p50 **${ms(b.whole.p50)} ms**, p95 ${ms(b.whole.p95)} ms, p99 **${ms(b.whole.p99)} ms**, ${b.non2xx} non-2xx and ${b.errors} errors of ${b.sent} sent; each provider round trip p50 ${ms(b.provider.p50)} ms, p99 ${ms(b.provider.p99)} ms.
- **Statements per checkout: ${trace.statements.length}** (traced below; ${inTransactions} transactions among them, ${trace.statements.length - 2 * inTransactions} statements doing work), each one round trip to PostgreSQL. PostgreSQL counted ${counted.perCheckout.toFixed(2)} transactions per checkout over ${counted.checkouts} checkouts of different shoppers sent one at a time to the measured server (\`pg_stat_database\`; each statement outside a transaction counts as one).
- Charged once each: ${check.orders} paid orders in the database at the end, ${check.expected} checkouts answered 2xx${check.orders === check.expected ? "" : " (**they differ**)"}.

| case | checkouts | p50 ms | p95 ms | p99 ms | max ms |
|---|---:|---:|---:|---:|---:|
${row("One shopper, sequential: the whole checkout", a.whole)}
${row("– of which the provider's round trips, summed", a.provider)}
${a.perCall.map((c) => row(`– – ${c.what}`, c)).join("\n")}
${row("– from the request to the first provider call (plan: the cart becomes the order)", a.before)}
${row("– from the last provider answer to the answer (record the payment, read the receipt)", a.after)}
${row(`${s.shopperCount} shoppers, steady ${s.rate}/s: the whole checkout`, b.whole)}
${row("– each provider round trip on its own", b.provider)}

CPU busy before the measured runs (at most): ${a.busy ?? "–"} % sequential, ${b.busy ?? "–"} % steady; during the steady rounds the machine kept ${b.cores === null ? "–" : b.cores.toFixed(2)} of its cores busy on average (server, PostgreSQL, simulators and the bench together); the steady sender was at most ${ms(b.maxSendLag)} ms late.

### Where a checkout's time goes

One checkout traced inside the bench process (the server's app built there on the same database, \`app.inject\`, no network between the bench and the app, nothing else running; the same payment simulator behind the same relay): the whole request took ${ms(trace.requestMs)} ms at the median of ${trace.checkouts}, of which **${ms(trace.providerMs)} ms (${share(trace.providerMs)}) waiting for the payment provider** over ${trace.providerCalls} round trips, **${ms(database)} ms (${share(database)}) waiting for PostgreSQL** over ${trace.statements.length} round trips, and about ${ms(server)} ms (${share(server)}) the server's own work (routing, JSON, schema checks, the access token's signature, the \`stripe\` client building and parsing its requests).

| # | statement | round trip ms |
|---|---|---:|
${statements.join("\n")}

Round trip: median over the traced checkouts, as the server's driver saw it (send to answer). The statements as sent:

${sql}

### How it was measured

- The real server (\`node apps/server/src/main.ts\`, NODE_ENV=production, LOG_LEVEL=warn, DEV_TOOLS=true, default pool of 10) on a fresh PostgreSQL ${measured.version} database \`glide_bench_<timestamp>\`, dropped afterwards. The payment simulator (\`tools/payment-simulator/main.ts\`) and the BankID simulator (\`tools/bankid-simulator/main.ts\`) each run as their own process, as \`npm start\` runs them, and the server is given the settings they print. The server's \`STRIPE_API_BASE\` points at a relay in the bench process that forwards each request to the simulator unchanged and records when it arrived and when the simulator's answer had been passed back: that is the "provider round trip" (the simulator's work plus one loopback hop; the relay's own hop adds a fraction of a millisecond to each).
- Through the API: one store with a door scanner key and ${s.productCount} products imported as CSV; each checkout pays for a visit of its own, asked for with \`POST /api/v1/sessions/entry\`, let in by the door scanner and given ${s.linesPerCart} lines of different products by \`POST /api/v1/cart/scan\` (\`BENCH_CHECKOUT_LINES\`); a checkout pays the shopper's latest visit through the door, so a shopper's checkouts come one after another, each after its own visit. This set-up is not timed. Every shopper has the test card \`pm_card_visa\` on file (\`PUT /api/v1/payment-method\`), so every checkout authorizes and captures at the simulator.
- One shopper: the development shopper (\`POST /api/v1/auth/dev-login\`); ${s.warmup} checkouts to warm up (not counted), then ${s.sequentialCount} (\`BENCH_CHECKOUT_COUNT\`), each timed from sending \`POST /api/v1/checkout\` to its answer (${a.seconds.toFixed(0)} s in all, ${a.setupSeconds.toFixed(0)} s of it making the visits). The provider calls of a checkout are the relay's records between its start and its answer (nothing else calls the provider meanwhile).
- Many shoppers: ${s.shopperCount} shoppers (\`BENCH_CHECKOUT_SHOPPERS\`) signed in as a phone does, through the BankID simulator (\`/api/v1/auth/init\`, the simulator's app approving a generated personal number, \`/api/v1/auth/collect\`; ${measured.signInSeconds.toFixed(0)} s for all, the server asks BankID about an order at most every 2 s). Each of ${s.rounds} rounds (\`BENCH_CHECKOUT_ROUNDS\`) readies one visit per shopper, waits for an idle server and quiet CPUs, then sends the ${s.shopperCount} checkouts, one shopper each, at a steady ${s.rate}/s (\`BENCH_CHECKOUT_RATE\`; bench/steady.ts: sent on time whether or not earlier ones were answered, latency from the moment a checkout was due to its answer's last byte). All shoppers shop in the one store, so their checkouts share its receipt counter row.
- Transactions per checkout: \`xact_commit + xact_rollback\` of the database in \`pg_stat_database\`, read 11 s after activity (a backend reports within 10 s of going idle), before and after ${counted.checkouts} checkouts sent one at a time (one per shopper, their visits readied before the first reading); the reading client's own two statements are taken off. The server's minute-by-minute housekeeping may add one or two in the window.
- Everything on ${HOST}; the bench, the server, both simulators and PostgreSQL share the machine's CPUs. Each measured run waits up to a minute for the CPUs to be at most ${QUIET_CPU} % busy (other processes) and starts anyway after that.
`;
}
