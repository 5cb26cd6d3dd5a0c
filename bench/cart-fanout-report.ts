/** The live cart fan-out section of bench/results.md, from bench/cart-fanout.ts's figures. */
import { QUIET_CPU } from "./cart-setup.ts";
import { HOST, PAUSE_MS, type Skipped } from "./lib.ts";

const BUDGET_P99_MS = 100;

export type FanoutCase = {
  bus: "PostgreSQL LISTEN/NOTIFY" | "Redis pub/sub";
  skipped?: string;
  sockets?: number;
  connectSeconds?: number;
  rssMb?: (number | null)[];
  busy?: number | null;
  /** Cores the whole machine kept busy during the measured run. */
  coresBusy?: number | null;
  scans?: number;
  achieved?: number;
  non2xx?: number;
  errors?: number;
  /** Scans answered 200, of them those whose product_added reached the socket, and whose cart_updated did. */
  answered?: number;
  arrived?: number;
  updated?: number;
  /** Messages that reached the socket before the scan's answer reached the bench (counted as 0 ms). */
  early?: number;
  /** Messages for a visit with no scan of the measured run in flight (the warm-up's late ones). */
  stray?: number;
  p50?: number;
  p95?: number;
  p99?: number;
  max?: number;
  crossP99?: number;
  sameP99?: number;
  sendP99?: number;
  closedEarly?: number;
  /** Warning and error lines in the instances' output. */
  warnings?: string[];
};

export type FanoutFigures = { version: string; cases: FanoutCase[]; setupSeconds: number };

type Settings = { sockets: number; rate: number; duration: number; warmup: number; instances: number; graceMs: number };

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "–" : v.toFixed(1));
const n = (v: number | undefined) => (v === undefined ? "–" : Math.round(v).toLocaleString("en"));

export function fanoutReport(measured: FanoutFigures | Skipped, s: Settings): string {
  const title = `## Live cart fan-out: ${n(s.sockets)} WebSockets on ${s.instances} instances`;
  const budget = `Budget (issue 8): from a scan's HTTP answer to its \`product_added\` at the visit's socket, p99 ≤ ${BUDGET_P99_MS} ms, with ${n(s.sockets)} sockets open over ${s.instances} server instances on one PostgreSQL and scans at a steady rate.`;
  if ("skipped" in measured) return `${title}\n\n${budget}\n\nNot measured: ${measured.skipped}\n`;
  const verdicts = measured.cases.map((c) => {
    if (c.p99 === undefined) return `- ${c.bus}: not measured (${c.skipped?.split("\n")[0]}).`;
    const complete = c.arrived === c.answered && c.answered === c.scans && c.sockets === s.sockets;
    const met = c.p99 <= BUDGET_P99_MS && complete;
    return `- ${c.bus}: **${met ? "met" : "not met"}**; p99 ${ms(c.p99)} ms, p50 ${ms(c.p50)} ms; ${n(c.arrived)} of ${n(c.answered)} answered scans reached their socket${complete ? "" : " (**some did not, or not every socket was open**)"}; from sending the scan to the message, p99 ${ms(c.sendP99)} ms.`;
  });
  const rows = measured.cases.map((c) => {
    if (c.p99 === undefined) return `| ${c.bus} | skipped: ${c.skipped?.split("\n")[0]} |${" |".repeat(15)}`;
    const cells = [
      c.bus,
      n(c.sockets),
      n(c.achieved),
      n(c.scans),
      `${n(c.arrived)} / ${n(c.updated)}`,
      ms(c.p50),
      ms(c.p95),
      ms(c.p99),
      ms(c.max),
      ms(c.sameP99),
      ms(c.crossP99),
      ms(c.sendP99),
      `${c.non2xx} / ${c.errors}`,
      c.rssMb?.map((m) => m ?? "–").join(" / "),
      c.connectSeconds?.toFixed(1),
      c.busy ?? "–",
      c.coresBusy?.toFixed(2) ?? "–",
    ];
    return `| ${cells.join(" | ")} |`;
  });
  const details = measured.cases
    .filter((c) => c.skipped?.includes("\n"))
    .map((c) => `\n${c.bus}:\n\n\`\`\`\n${c.skipped}\n\`\`\`\n`)
    .join("");
  const early = measured.cases.map((c) => `${c.bus} ${n(c.early)}`).join(", ");
  const warnings = measured.cases
    .filter((c) => c.warnings !== undefined)
    .map((c) => `${c.bus}: ${c.warnings!.length ? c.warnings!.map((w) => `\`${w}\``).join("; ") : "none"}`)
    .join("; ");
  return `${title}

${budget}

${verdicts.join("\n")}
- Warnings or errors in the instances' output (a listener leak, a failed publish or push): ${warnings || "–"}.

| event bus | sockets open | scans/s | scans | product_added / cart_updated arrived | p50 ms | p95 ms | p99 ms | max ms | p99 same instance | p99 other instance | p99 from sending the scan | non-2xx / errors | server RSS MB | sockets opened in s | CPU busy before % | cores busy during the run |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}
${details}
### How it was measured

- ${s.instances} instances of the real server (\`node apps/server/src/main.ts\`, NODE_ENV=production, LOG_LEVEL=warn, DEV_TOOLS=true, one secret key, default pool of 10 each) on one fresh PostgreSQL ${measured.version} database; the event bus on PostgreSQL \`LISTEN/NOTIFY\`, then (new instances, same database) on Redis pub/sub with \`REDIS_URL\`.
- ${n(s.sockets)} visits of the development shopper, each let in by the door scanner through the API, made in ${measured.setupSeconds.toFixed(1)} s (one at a time: a new entry code revokes the unused ones). One WebSocket per visit, as each shopper's phone holds one: visit k's on instance k mod ${s.instances}, opened from the bench process 200 at a time with Node's WebSocket client, each counted once the server answered its \`auth\` message with \`ready\` (\`BENCH_FANOUT_SOCKETS\`). "server RSS" is each instance's resident memory with its sockets open.
- Scans: ${s.rate} per second (\`BENCH_FANOUT_RATE\`, about one scan every 25 s per connected shopper), sent on time whatever the answers (bench/steady.ts), each to the next visit in turn with a new \`scan_id\`, half of them to the instance that holds the visit's socket and half to the other; ${s.warmup} s warm-up, a ${PAUSE_MS / 1000} s pause, then ${s.duration} s measured (\`BENCH_DURATION\`).
- Latency: the bench's clock when the scan's HTTP answer had fully arrived to when the visit's socket received \`product_added\`, both seen by the bench process; a message that arrived before the answer counts as 0 ms (${early}): the server publishes the event before it answers the scan, so the message often wins. "from sending the scan": from the moment the scan was due to the message. A scan whose message has not arrived ${s.graceMs / 1000} s after the last answer counts as not arrived. Each \`product_added\` is followed by \`cart_updated\` with the whole cart, which the instance holding the socket reads from the database; both are counted.
- Everything on ${HOST}: the bench with its sockets, both instances, PostgreSQL and Redis share the machine's CPUs. "CPU busy before": how busy the CPUs were in the second before the measured run, the bench and its servers idle; the run waits up to a minute for it to fall to ${QUIET_CPU} % or less, and starts anyway after that, so a figure above ${QUIET_CPU} means other processes were competing with it. "cores busy during the run": the whole machine (2 is all of it), this bench and everything else.
`;
}
