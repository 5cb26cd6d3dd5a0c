/** The live cart's sockets-per-visit section of bench/results.md, from bench/cart-sockets.ts's figures. */
import { QUIET_CPU } from "./cart-setup.ts";
import { HOST, PAUSE_MS, type Skipped } from "./lib.ts";

/** How the attacker of a case behaved: one burst, bursts in waves, refused by the server, or no attacker. */
export type Attack = "once" | "waves" | "refused" | null;

const BUDGET_P99_MS = 25;

type Latencies = { answered: number; p50: number; p95: number; p99: number; max: number };

export type SocketsCase = {
  attack: Attack;
  all: Latencies;
  /** Opened once: the scans due while the sockets were being opened, and those due after. */
  during?: Latencies | undefined;
  after?: Latencies | undefined;
  scans: number;
  non2xx: number;
  errors: number;
  maxSendLag: number;
  transactionsPerScan: number;
  /** cart_updated messages the phone's socket heard, and how it was closed (null: open to the end). */
  phoneUpdates: number;
  phoneClosed: string | null;
  busy: number | null;
  coresBusy: number | null;
  /** The attacker's figures (absent without one). */
  waves?: number;
  opened?: number;
  ready?: number;
  replaced?: number;
  otherCloses?: number;
  mostOpen?: number;
  updates?: number;
};

export type SocketsFigures = { version: string; cases: SocketsCase[] };

type Settings = {
  sockets: number;
  inFlight: number;
  rate: number;
  duration: number;
  warmup: number;
  statsDelayMs: number;
};

/**
 * The same bench on the code before the per-visit limit (commit 66e192b, the
 * live cart as the finding had it), for the paragraph below; measured once,
 * by hand, on the same machine.
 */
const BEFORE = {
  when: "2026-11-26, 14:19–14:24 UTC, the machine otherwise idle",
  onceP99: "1,169.8",
  onceP50: "1,005.7",
  transactions: "2,334.5",
  wavesP99: "1,548.7",
  openSeconds: "7",
  afterP99: "1,122.2",
};

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "–" : v.toFixed(1));
const n = (v: number | undefined) => (v === undefined ? "–" : Math.round(v).toLocaleString("en"));

export function socketsReport(measured: SocketsFigures | Skipped, s: Settings): string {
  const sockets = n(s.sockets);
  const title = `## Live cart sockets: a scan's p99 with ${sockets} sockets open on its visit`;
  const budget = `Budget: a scan's p99 ≤ ${BUDGET_P99_MS} ms with ${sockets} live cart sockets opened on its visit with the visit's token, as anyone holding the token could (the finding: all were accepted, each change read the cart once per socket, and a scan took 530 ms). A visit now keeps its 5 newest sockets (the oldest closed with 4409), and a change is read once for all of them.`;
  if ("skipped" in measured) return `${title}\n\n${budget}\n\nNot measured: ${measured.skipped}\n`;
  const of = (attack: Attack) => measured.cases.find((c) => c.attack === attack);
  const phone = of(null);
  const once = of("once");
  const waves = of("waves");
  const refused = of("refused");
  const met = (l: Latencies | undefined, c: SocketsCase | undefined) =>
    l !== undefined && c !== undefined && l.p99 <= BUDGET_P99_MS && c.non2xx + c.errors === 0;
  const verdicts = [
    `- With the ${sockets} opened (once, with the visit's token, and held), the scans once they had all been answered: **${met(once?.after, once) ? "met" : "not met"}**, p99 **${ms(once?.after?.p99)} ms** over ${n(once?.after?.answered)} scans (p50 ${ms(once?.after?.p50)} ms), against ${ms(phone?.all.p99)} ms with only the phone's socket and ${BEFORE.afterP99} ms before the change. Of the ${sockets}, ${n(once?.ready)} were answered \`ready\`, ${n(once?.replaced)} closed with 4409, ${n(once?.otherCloses)} otherwise; ${n(once?.opened !== undefined ? once.opened - (once.replaced ?? 0) - (once.otherCloses ?? 0) : undefined)} stayed open.`,
    `- While they were being opened: **${met(once?.all, once) ? "met" : "not met"}** over the whole run, p99 **${ms(once?.all.p99)} ms** (p50 ${ms(once?.all.p50)} ms; ${n(once?.non2xx)} non-2xx, ${n(once?.errors)} errors), the slow ones all among the ${n(once?.during?.answered)} scans due during the opening (their p99 ${ms(once?.during?.p99)} ms). Wave after wave for the whole run (${n(waves?.opened)} sockets in ${n(waves?.waves)} waves): p99 **${ms(waves?.all.p99)} ms** (p50 ${ms(waves?.all.p50)} ms). The same waves with a token the server refuses at once, so no live cart work at all (${n(refused?.opened)} sockets): p99 **${ms(refused?.all.p99)} ms** (p50 ${ms(refused?.all.p50)} ms): a flood of new connections costs this whatever the live cart does (below).`,
  ];
  const row = (name: string, c: SocketsCase, l: Latencies, whole: boolean) =>
    [
      name,
      n(l.answered),
      ms(l.p50),
      ms(l.p95),
      ms(l.p99),
      ms(l.max),
      whole ? `${n(c.non2xx)} / ${n(c.errors)}` : "",
      whole ? n(c.opened) : "",
      whole ? n(c.ready) : "",
      whole ? n(c.replaced) : "",
      whole ? n(c.otherCloses) : "",
      whole ? n(c.mostOpen) : "",
      whole && c.updates !== undefined ? (c.updates / c.scans).toFixed(1) : "",
      whole ? c.transactionsPerScan.toFixed(1) : "",
      whole ? (c.phoneClosed ?? `open, ${n(c.phoneUpdates)} cart_updated`) : "",
      whole ? (c.busy ?? "–") : "",
      whole ? (c.coresBusy?.toFixed(2) ?? "–") : "",
    ].join(" | ");
  const names: Record<string, string> = {
    null: "the phone's socket only",
    once: `${sockets} opened once with the visit's token, held: all scans`,
    waves: `${sockets} opened, then closed, wave after wave`,
    refused: `the same waves with a token refused at once`,
  };
  const rows = measured.cases.flatMap((c) => [
    row(names[String(c.attack)]!, c, c.all, true),
    ...(c.during ? [row("– the scans while they were being opened", c, c.during, false)] : []),
    ...(c.after ? [row("– the scans after", c, c.after, false)] : []),
  ]);
  return `${title}

${budget}

${verdicts.join("\n")}

| case | scans | p50 ms | p95 ms | p99 ms | max ms | non-2xx / errors | sockets opened | answered ready | closed 4409 | closed otherwise | most open at once | the attacker's cart_updated per scan | PostgreSQL transactions per scan | the phone's socket | CPU busy before % | cores busy during the run |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|
${rows.map((r) => `| ${r} |`).join("\n")}

### Where the time went

Before the limit (this bench on commit 66e192b, ${BEFORE.when}): every socket opened with the token was accepted and held a subscription of its own, and each change read the cart once per socket. With the ${sockets} opened once and held (all of them accepted, the phone's too; opening them took about ${BEFORE.openSeconds} s, as each waited for its first cart behind the others' reads), a scan's p99 was **${BEFORE.onceP99} ms** (p50 ${BEFORE.onceP50} ms), and PostgreSQL ran ${BEFORE.transactions} transactions per scan: the cart read (the visit, then its lines) for every socket, queued on the server's pool of 10 connections ahead of the next scan's own statements. Wave after wave, p99 ${BEFORE.wavesP99} ms; the control with a refused token was as fast as it is now.

Now a change is read once per instance for all of the visit's sockets (one bus subscription and one queue per visit, \`apps/server/src/features/cart/cart.fanout.ts\`), so once the sockets are answered a scan costs what it costs with the phone alone. The whole run, the attacker's ${sockets} openings included, came to ${once ? once.transactionsPerScan.toFixed(1) : "–"} transactions per scan, against ${phone ? phone.transactionsPerScan.toFixed(1) : "–"} with the phone alone and ${BEFORE.transactions} before. A newcomer costs a signature check (one per token: verified tokens are kept), a query whether its sign-in is live (sockets arriving together with one token share it) and its first cart (newcomers arriving together share one read); all but the newest five are closed with 4409, most before any \`ready\`. The phone's own socket is the oldest, so it is closed with 4409 too; the phone then stays off the socket until its page is shown again instead of fighting back (docs/live-cart.md), and its own scans still show at once from their answers.

What remains while sockets are being opened is the cost of accepting them, which the live cart does not add to: the control row (the same waves, every token refused before any live cart work) is as slow as the real ones. (Over five runs of this code on 2026-11-26 the p99 of the waves was 36–83 ms and the control's 42–83 ms: a few scans a run decide it.) Each WebSocket costs the server about 0.25–0.35 ms of CPU whatever it then does (TCP accept, the HTTP upgrade through the app's hooks, the handshake's answer, the close; measured with a throwaway script and a CPU profile of the server, 2026-11-26), and the attacker process as much again on the same two cores, so ${sockets} sockets ${n(s.inFlight)} at a time fill the server's event loop for a second and hold up the scans that fall in it. That is a connection flood, whatever the token; it is stopped in front of the service (a per-address connection rate limit at the load balancer), not per visit.

### How it was measured

- The real server (\`node apps/server/src/main.ts\`, NODE_ENV=production, LOG_LEVEL=warn, DEV_TOOLS=true, default pool of 10) on a fresh PostgreSQL ${measured.version} database; 10 products, the development shopper signed in (one access token for everything), and per case a visit through the door of a store of its own (a shopper has one open visit per store).
- Per case: the phone's socket on the visit, a ${s.warmup} s warm-up of scans (not counted), a ${PAUSE_MS / 1000} s pause, then ${s.duration} s of scans at a steady ${s.rate} per second on that visit (bench/steady.ts: sent on time whatever the answers; latency from the moment a scan was due to its answer's last byte; the sender was at most ${ms(Math.max(...measured.cases.map((c) => c.maxSendLag)))} ms late), each with a new \`scan_id\`, cycling through the products.
- The attacker is a process of its own (\`bench/cart-sockets.ts --attack\`, Node's WebSocket client), started with the measured scans: it opens ${sockets} sockets to \`/ws/cart\` on the visit with the same token, ${n(s.inFlight)} in flight at a time (\`BENCH_SOCKETS\`, \`BENCH_SOCKETS_IN_FLIGHT\`), each sending its \`auth\` message and waiting for \`ready\` or its close. Opened once: it then holds those still open until the scans end; "while they were being opened" are the scans due before its last socket was answered. Wave after wave: it closes those still open and opens the next ${sockets} at once, until the scans end. "most open at once": sockets that had \`ready\` and had not yet seen their close, as the attacker saw them.
- Transactions per scan: \`xact_commit + xact_rollback\` of the database in \`pg_stat_database\`, read ${s.statsDelayMs / 1000} s after the warm-up and ${s.statsDelayMs / 1000} s after the measured run (a backend reports within 10 s of going idle), divided by the scans sent: everything the database did in the run, the attacker's sockets and about ten health checks included.
- Everything on ${HOST}: the scans, the attacker, the server and PostgreSQL share the machine's CPUs. "CPU busy before": how busy the CPUs were in the second before the measured run; the run waits up to a minute for it to fall to ${QUIET_CPU} % or less. "cores busy during the run": the whole machine (2 is all of it).
`;
}
