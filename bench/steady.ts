/**
 * An open-loop load at a steady rate: one request every 1/rate seconds,
 * sent on time whether or not earlier ones have been answered. autocannon's
 * own rate limit sends each connection's share for the second at its start,
 * in a burst, so it cannot show the latency of an even stream.
 */
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** `base` sends this one request elsewhere than the load's base (another instance). */
export type SteadyRequest = { path: string; body: string; headers: Record<string, string>; base?: string };

export type SteadyResult = {
  /** ms from the moment each answered request was due to its last byte, sorted. */
  latencies: number[];
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Answers per second over the time from the first request due to the last answer. */
  achieved: number;
  /** How late the sender was, at worst, in putting a request on the wire (ms): the bench itself was behind. */
  maxSendLag: number;
};

/**
 * Sends `rate` requests per second for `seconds` to `base`. `next` builds
 * each request; `onAnswer` hears each answer's status with the time
 * (performance.now()) its last byte arrived. The bodies are read and
 * dropped, not kept: what the sender keeps it must also collect, and its
 * collector's pauses would count as the server's latency.
 */
export async function steadyLoad(opts: {
  base: string;
  rate: number;
  seconds: number;
  /** Builds request i, due at `due` (performance.now()). */
  next: (i: number, due: number) => SteadyRequest;
  onAnswer?: (i: number, status: number, at: number) => void;
  /** Sockets kept open; more than the requests in flight at any moment. */
  maxSockets?: number;
}): Promise<SteadyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256 });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  const result = { sent: 0, ok: 0, non2xx: 0, errors: 0, maxSendLag: 0 };
  const pending = new Set<Promise<void>>();
  let lastAnswer = 0;

  const send = (i: number, due: number) => {
    const request = opts.next(i, due);
    const url = new URL(request.base ?? opts.base);
    const done = new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: request.path,
          agent,
          timeout: 10_000,
          headers: { "content-type": "application/json", ...request.headers },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            const at = performance.now();
            lastAnswer = at;
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              result.ok++;
              latencies.push(at - due);
            } else result.non2xx++;
            opts.onAnswer?.(i, status, at);
            resolve();
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
      req.on("error", () => {
        result.errors++;
        resolve();
      });
      req.end(request.body);
    });
    result.sent++;
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  const start = performance.now();
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Everything that is due goes out now; a late sender catches up rather than lowering the rate.
    while (i < total && start + i * interval <= now) {
      const due = start + i * interval;
      result.maxSendLag = Math.max(result.maxSendLag, now - due);
      send(i, due);
      i++;
    }
    if (i < total) await sleep(Math.max(0, Math.min(interval, start + i * interval - performance.now())));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const span = (lastAnswer - start) / 1000;
  return { latencies, ...result, achieved: span > 0 ? result.ok / span : 0 };
}

/**
 * steadyLoad sent from a worker thread of its own, with requests made
 * beforehand (`rate × seconds` of them): the worker's heap holds only the
 * load, so neither the bench's collector (its heap holds what earlier
 * sections left) nor the load's own pauses it for long, and the latencies
 * are the server's. Answers' statuses come back in the order of the requests.
 */
export async function isolatedSteadyLoad(opts: {
  base: string;
  rate: number;
  seconds: number;
  requests: SteadyRequest[];
}): Promise<SteadyResult & { statuses: number[] }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { kind: STEADY_WORKER, ...opts } });
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the load's worker ended (${code}) before its answer`)));
    });
  } finally {
    await worker.terminate();
  }
}

const STEADY_WORKER = "steady-load";

if (!isMainThread && workerData?.kind === STEADY_WORKER) {
  const { base, rate, seconds, requests } = workerData as {
    base: string;
    rate: number;
    seconds: number;
    requests: SteadyRequest[];
  };
  const statuses: number[] = [];
  const result = await steadyLoad({
    base,
    rate,
    seconds,
    next: (i) => requests[i]!,
    onAnswer: (i, status) => {
      statuses[i] = status;
    },
  });
  parentPort!.postMessage({ ...result, statuses });
}

/** The q-quantile of sorted values (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
