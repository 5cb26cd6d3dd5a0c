import { lookup } from "node:dns/promises";
import net, { isIP } from "node:net";
import { addressNotAllowed, type CameraNetworks } from "./camera-networks.ts";
import { networkFailure, timedOut, type Where } from "./errors.ts";

/**
 * One time limit for a whole conversation with a camera. Every socket opened
 * under it is destroyed when it runs out, so nothing waits past it, and
 * whatever was in progress fails as "timed out" at the step it had reached.
 */
export class Deadline {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort?: () => void;
  private readonly parent: AbortSignal | undefined;

  constructor(timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.endsAt = Date.now() + timeoutMs;
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => this.controller.abort(new DeadlineExceeded()), timeoutMs);
    this.timer.unref();
    this.parent = parent;
    if (parent) {
      this.onParentAbort = () => this.controller.abort(parent.reason);
      if (parent.aborted) this.onParentAbort();
      else parent.addEventListener("abort", this.onParentAbort, { once: true });
    }
  }

  get remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** `work` or the deadline, whichever comes first; running out fails as timed out at `where`. */
  race<T>(work: Promise<T>, where: Where): Promise<T> {
    if (this.signal.aborted) return Promise.reject(this.failure(where));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.failure(where));
      this.signal.addEventListener("abort", onAbort, { once: true });
      work.then(
        (v) => {
          this.signal.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e: unknown) => {
          this.signal.removeEventListener("abort", onAbort);
          reject(this.signal.aborted ? this.failure(where) : e);
        },
      );
    });
  }

  /** Waits `ms`, or less when the deadline comes first (then fails at `where`). */
  sleep(ms: number, where: Where): Promise<void> {
    return this.race(new Promise((r) => setTimeout(r, ms).unref()), where);
  }

  failure(where: Where): Error {
    const reason = this.signal.reason;
    return reason instanceof DeadlineExceeded ? timedOut(where) : (reason as Error);
  }

  dispose() {
    clearTimeout(this.timer);
    if (this.parent && this.onParentAbort) this.parent.removeEventListener("abort", this.onParentAbort);
  }
}

export class DeadlineExceeded extends Error {
  constructor() {
    super("The time limit ran out");
    this.name = "DeadlineExceeded";
  }
}

/** Runs `work` under a fresh deadline and always clears it. */
export async function withDeadline<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  work: (d: Deadline) => Promise<T>,
): Promise<T> {
  const deadline = new Deadline(timeoutMs, signal);
  try {
    return await work(deadline);
  } finally {
    deadline.dispose();
  }
}

/** A host as sockets want it: IPv6 without its brackets. */
export const bareHost = (host: string) => host.replace(/^\[(.*)\]$/, "$1");

/**
 * The address step: the host name looked up (an IP address is taken as it
 * is) and every address it has checked against the camera networks, so a
 * name that leads, or starts to lead, somewhere cameras may not be is
 * refused. Callers connect to the address returned, never to the name again:
 * a second lookup could answer differently.
 */
export async function resolveHost(
  host: string,
  deadline: Deadline,
  where: Omit<Where, "step" | "doing">,
  networks: CameraNetworks,
): Promise<string> {
  const name = bareHost(host);
  const w: Where = { ...where, step: "address", doing: "looking up the address" };
  let found: string[];
  if (isIP(name)) found = [name];
  else {
    try {
      found = (await deadline.race(lookup(name, { all: true }), w)).map((a) => a.address);
    } catch (err) {
      throw networkFailure(err, w);
    }
    if (found.length === 0) throw networkFailure({ code: "ENOTFOUND" }, w);
  }
  for (const address of found) {
    const verdict = networks.judge(address);
    if (!verdict.allowed) throw addressNotAllowed(host, verdict.reason, !isIP(name));
  }
  return found[0]!;
}

/** The connect step: a TCP connection, destroyed if the deadline runs out. */
export function openSocket(address: string, deadline: Deadline, where: Where): Promise<net.Socket> {
  const socket = net.connect({ host: address, port: where.port });
  const destroy = () => socket.destroy();
  deadline.signal.addEventListener("abort", destroy, { once: true });
  socket.once("close", () => deadline.signal.removeEventListener("abort", destroy));
  const connected = new Promise<net.Socket>((resolve, reject) => {
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
  return deadline.race(connected, where).catch((err: unknown) => {
    socket.destroy();
    throw networkFailure(err, where);
  });
}
