/**
 * One visit's token used to open BENCH_SOCKETS live cart sockets on that
 * visit, as anyone holding the token could, while the visit's shopper scans
 * at a steady rate: each scan's latency, against the same visit with only
 * the phone's socket. The sockets are opened once (BENCH_SOCKETS_IN_FLIGHT
 * at a time) at the start of the measured run and held, as the finding had
 * them; then opened and closed wave after wave for the whole run; and, to
 * show what accepting the connections costs by itself, the same waves with a
 * token the server refuses at once. Returns its section of bench/results.md
 * (bench/cart-sockets-report.ts).
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { openFileLimit } from "./cart-fanout.ts";
import { machineCpu, openVisits, prepareShop, quietCpu, SCAN_PATH, type Shop, shopperToken } from "./cart-setup.ts";
import { type Attack, type SocketsCase, type SocketsFigures, socketsReport } from "./cart-sockets-report.ts";
import {
  type Child,
  call,
  PAUSE_MS,
  type Server,
  type Skipped,
  setting,
  start,
  stop,
  waitIdle,
  withPostgres,
  withServer,
} from "./lib.ts";
import { quantile, steadyLoad } from "./steady.ts";

const socketCount = setting("BENCH_SOCKETS", 1500);
const inFlight = setting("BENCH_SOCKETS_IN_FLIGHT", 200);
const rate = setting("BENCH_SOCKETS_RATE", 10);
const duration = setting("BENCH_DURATION", 10);
const warmup = Math.min(3, duration);
/** Few products, so the cart stays a few lines however many scans it takes. */
const PRODUCTS = 10;
/** A backend reports its transactions to pg_stat_database within 10 s of going idle. */
const STATS_DELAY_MS = 11_000;

/** Seconds the section may take before the bench gives up. */
export const socketsTimeLimit = 4 * (warmup + duration + PAUSE_MS / 1000 + 2 * (STATS_DELAY_MS / 1000) + 60) + 300;

export async function socketsBench(): Promise<string> {
  const settings = { sockets: socketCount, inFlight, rate, duration, warmup, statsDelayMs: STATS_DELAY_MS };
  const limit = openFileLimit();
  if (limit !== null && limit < socketCount + 1000) {
    const skipped = `this process may open ${limit} files (ulimit -n); ${socketCount} sockets need at least ${socketCount + 1000}`;
    return socketsReport({ skipped }, settings);
  }
  const measured = await withPostgres((url, version) =>
    withServer({ DATABASE_URL: url, DEV_TOOLS: "true" }, async (server) => {
      const shop = await prepareShop(server, PRODUCTS);
      const token = await shopperToken(server.base);
      const cases: SocketsCase[] = [];
      for (const attack of [null, "once", "waves", "refused"] as const) {
        // A shopper has one open visit per store: each case's visit is in a store of its own.
        const store = cases.length === 0 ? shop : { ...shop, ...(await anotherStore(server)) };
        const [visit] = await openVisits(server.base, store, token, 1);
        cases.push({ attack, ...(await socketsCase(server, url, shop, token, visit!, attack)) });
      }
      return { version, cases } satisfies SocketsFigures;
    }),
  ).catch((err: Error): Skipped => ({ skipped: err.message }));
  return socketsReport(measured, settings);
}

async function socketsCase(server: Server, url: string, shop: Shop, token: string, visit: string, attack: Attack) {
  const address = `${server.base.replace(/^http/, "ws")}/ws/cart?session_id=${visit}`;
  const phone = await phoneSocket(address, token);
  let turn = 0;
  const due: number[] = [];
  const answered: { due: number; ms: number }[] = [];
  const scans = (seconds: number) =>
    steadyLoad({
      base: server.base,
      rate,
      seconds,
      next: (i, at) => {
        due[i] = at;
        const barcode = shop.barcodes[turn++ % PRODUCTS];
        return {
          path: SCAN_PATH,
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ session_id: visit, barcode, scan_id: randomUUID() }),
        };
      },
      onAnswer: (i, status, at) => {
        if (status >= 200 && status < 300) answered.push({ due: due[i]!, ms: at - due[i]! });
      },
    });
  await scans(warmup);
  await sleep(PAUSE_MS);
  await waitIdle(server.base);
  const before = await transactions(url);
  const busy = await quietCpu();
  const machine = machineCpu();
  answered.length = 0;
  // The attacker is a process of its own: its sockets' work must not hold up this one's clock.
  const refused = attack === "refused";
  const attacker = attack
    ? start(["bench/cart-sockets.ts", "--attack", address, refused ? "not-a-token" : token, attack], {})
    : null;
  // The attacker's wall clock on this process's performance clock.
  const offset = Date.now() - performance.now();
  const load = await scans(duration);
  const figures = attacker ? await attackerFigures(attacker) : undefined;
  const coresBusy = machine();
  await waitIdle(server.base);
  const after = await transactions(url);
  phone.socket.close();
  // In the case opened once: the scans due while the sockets were being opened, and those due after.
  const opened = figures && attack === "once" ? figures.firstWaveAt - offset : Number.POSITIVE_INFINITY;
  return {
    all: latencies(answered),
    during: attack === "once" ? latencies(answered.filter((a) => a.due < opened)) : undefined,
    after: attack === "once" ? latencies(answered.filter((a) => a.due >= opened)) : undefined,
    scans: load.sent,
    non2xx: load.non2xx,
    errors: load.errors,
    maxSendLag: load.maxSendLag,
    // Each reading's own statement is in the later one.
    transactionsPerScan: (after - before - 1) / load.sent,
    phoneUpdates: phone.updates(),
    phoneClosed: phone.closed(),
    busy,
    coresBusy,
    ...figures,
  };
}

/** How many answered, and their latency's quantiles. */
function latencies(answers: { ms: number }[]) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const q = (p: number) => quantile(ms, p);
  return { answered: ms.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: q(1) };
}

/** A store of its own with its door scanner's key; the products are the whole chain's. */
async function anotherStore(server: Server): Promise<{ storeId: string; doorKey: string }> {
  const store = await call(`${server.base}/api/v1/stores/`, {
    method: "POST",
    json: { name: "Bench sockets store" },
    cookie: server.session,
  });
  const storeId = ((await store.json()) as { id: string }).id;
  const key = await call(`${server.base}/api/v1/stores/${storeId}/device-keys`, {
    method: "POST",
    json: { kind: "door_scanner" },
    cookie: server.session,
  });
  return { storeId, doorKey: ((await key.json()) as { key: string }).key };
}

/** The shopper's phone: one socket on the visit, counting the cart_updated it hears. */
async function phoneSocket(address: string, token: string) {
  const socket = new WebSocket(address);
  let updates = 0;
  let closed: string | null = null;
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "auth", access_token: token })));
    socket.addEventListener("message", (event) => {
      const type = (JSON.parse(String(event.data)) as { type: string }).type;
      if (type === "ready") resolve();
      if (type === "cart_updated") updates++;
    });
    socket.addEventListener("close", (event) => {
      closed = `${event.code} ${event.reason}`;
      reject(new Error(`the phone's socket closed with ${closed}`));
    });
  });
  return { socket, updates: () => updates, closed: () => closed };
}

/** Stops the attacker (SIGTERM ends its wave) and reads the figures it printed last. */
async function attackerFigures(child: Child): Promise<AttackFigures> {
  await stop(child);
  const last = child.output.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as AttackFigures;
  } catch {
    throw new Error(`the attacker printed no figures: ${child.output.slice(-500)}`);
  }
}

type AttackFigures = ReturnType<typeof attackInWaves> extends { finished: Promise<infer F> } ? F : never;

/**
 * Opens `socketCount` sockets with the token, `inFlight` at a time; then, in
 * waves, closes whatever is still open and starts again while `running()`,
 * else holds them until then.
 */
function attackInWaves(address: string, token: string, running: () => boolean, waves: boolean) {
  const figures = {
    waves: 0,
    opened: 0,
    ready: 0,
    replaced: 0,
    otherCloses: 0,
    mostOpen: 0,
    updates: 0,
    /** When the first wave had every socket answered (ready or closed), Date.now(). */
    firstWaveAt: 0,
  };
  let open = 0;
  const connect = (held: WebSocket[]) =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(address);
      figures.opened++;
      let isOpen = false;
      socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "auth", access_token: token })));
      socket.addEventListener("message", (event) => {
        const type = (JSON.parse(String(event.data)) as { type: string }).type;
        if (type === "cart_updated") figures.updates++;
        if (type !== "ready") return;
        figures.ready++;
        isOpen = true;
        figures.mostOpen = Math.max(figures.mostOpen, ++open);
        held.push(socket);
        resolve();
      });
      socket.addEventListener("close", (event) => {
        if (isOpen) open--;
        if (event.code === 4409) figures.replaced++;
        else if (event.code !== 1000 && event.code !== 1005) figures.otherCloses++;
        resolve();
      });
    });
  const wave = async () => {
    const held: WebSocket[] = [];
    let next = 0;
    const worker = async () => {
      while (next < socketCount) {
        next++;
        await connect(held);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    figures.waves++;
    figures.firstWaveAt ||= Date.now();
    while (!waves && running()) await sleep(50);
    for (const socket of held) socket.close(1000);
  };
  const finished = (async () => {
    do await wave();
    while (waves && running());
    // Closes take a moment to arrive; the counts are read after them.
    await sleep(500);
    return figures;
  })();
  return { finished };
}

/** Committed and rolled-back transactions of the database so far, as pg_stat_database has them. */
async function transactions(url: string): Promise<number> {
  await sleep(STATS_DELAY_MS);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()",
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

// Attacker mode: this file re-run as a child (socketsCase), until it is sent SIGTERM.
if (process.argv[2] === "--attack" && process.argv[1] === import.meta.filename) {
  const [address, token, mode] = process.argv.slice(3) as [string, string, string];
  let running = true;
  process.on("SIGTERM", () => {
    running = false;
  });
  const figures = await attackInWaves(address, token, () => running, mode !== "once").finished;
  // Sockets still closing would keep the process up past the parent's patience.
  process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
}
