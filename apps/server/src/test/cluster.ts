import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * Several server processes (`node apps/server/src/main.ts`) on one
 * PostgreSQL database and Redis, behind Debian's HAProxy, as a chain runs
 * them: what cluster.test.ts proves the service with.
 */

const MAIN = path.join(import.meta.dirname, "..", "main.ts");
export const HAPROXY = "/usr/sbin/haproxy";
export const haproxyInstalled = () => existsSync(HAPROXY);
const LOCAL_PORTS = "/proc/sys/net/ipv4/ip_local_port_range";

/**
 * The ports freePort hands out: below the range the kernel takes the local
 * ports of outgoing connections from (32768–60999 on Linux), so that no
 * connection made between the call and the child's listen (an instance's
 * own to PostgreSQL, a check of HAProxy's) takes the port, nor one made while
 * an instance restarts on its port. Ports handed out from port 0 (the
 * kernel's choice, in that range) once made an instance fail to start with
 * EADDRINUSE in CI, while another instance answered on its port.
 */
const PORTS = (() => {
  const range = existsSync(LOCAL_PORTS) ? readFileSync(LOCAL_PORTS, "utf8").trim().split(/\s+/).map(Number) : [];
  const below = range[0] && range[0] > 12_000 ? range[0] : 32_768;
  return { first: 10_000, last: below };
})();
/** Handed out by this process already: never twice, as a port handed out is not held until its child listens. */
const handedOut = new Set<number>();

/** A port nobody listens on now, for a child process to listen on (see PORTS). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS.first + Math.floor(Math.random() * (PORTS.last - PORTS.first));
    if (handedOut.has(port)) continue;
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (!free) continue;
    await new Promise((resolve) => server.close(resolve));
    handedOut.add(port);
    return port;
  }
}

/** An empty database of its own on the test PostgreSQL; `drop` removes it. */
export async function emptyDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `glide_cluster_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export type Instance = {
  name: string;
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
};

/** A server process (`node apps/server/src/main.ts`) with `env` and little else; its output kept. */
export type Running = { child: ChildProcess; output(): string; exited: Promise<number | null> };

export function spawnServer(env: Record<string, string>, onExit?: () => void): Running {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      onExit?.();
      resolve(code);
    }),
  );
  return { child, output: () => out, exited };
}

/** Starts one server process on `port`, its data folder its own, the rest of its settings shared. */
export function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const dataDir = mkdtempSync(path.join(tmpdir(), `glide-cluster-${name}-`));
  const running = spawnServer({ ...env, PORT: String(port), DATA_DIR: dataDir }, () =>
    rmSync(dataDir, { recursive: true, force: true }),
  );
  return { name, port, ...running };
}

/** Waits until the instance answers `/api/ready` with 200 (it migrates first on an empty database). */
export async function waitReady(instance: Instance, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) throw new Error(`${instance.name} exited: ${instance.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${instance.port}/api/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${instance.name} did not become ready: ${instance.output()}`);
}

export type Balancer = { port: number; stop(): Promise<void>; output(): string };

/**
 * HAProxy in front of `backends`, round robin, each checked on `/api/ready`
 * every 200 ms (taken out at the first failure, back at the first success),
 * telling the client which server answered in `X-Served-By`, and passing the
 * client's address on in `X-Forwarded-For`.
 */
export async function startProxy(backends: { name: string; port: number }[]): Promise<Balancer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "glide-haproxy-"));
  const file = path.join(dir, "haproxy.cfg");
  writeFileSync(
    file,
    [
      "global",
      "  maxconn 4000",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  timeout tunnel 1h",
      "  option forwardfor",
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure empty-response",
      "frontend web",
      `  bind 127.0.0.1:${port}`,
      "  default_backend glide",
      "backend glide",
      "  balance roundrobin",
      "  option httpchk GET /api/ready",
      "  http-check expect status 200",
      "  default-server inter 200ms fall 1 rise 1",
      "  http-response set-header X-Served-By %s",
      ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
      "",
    ].join("\n"),
  );
  const check = spawnSync(HAPROXY, ["-c", "-f", file], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}${check.stdout}`);
  const child = spawn(HAPROXY, ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`haproxy did not start: ${out}`);
      await sleep(50);
    }
  }
  return {
    port,
    output: () => out,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A GET from a loopback address of the caller's choosing (127.0.0.x), as a client elsewhere would come. */
export function requestFrom(
  localAddress: string,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers, localAddress }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

export type LiveCart = {
  items: { quantity: number }[];
};

/**
 * A live cart through the proxy, as the phone keeps it (docs/live-cart.md):
 * after a 1012 ("server restarting") it connects again within 0–500 ms and
 * counts how long it was without a cart.
 */
export async function openCart(base: string, visit: string, auth: string) {
  let cart: LiveCart | null = null;
  let closed = false;
  let socket: WebSocket;
  let lostAt: number | null = null;
  const gaps: number[] = [];
  let restarts = 0;
  const waiting = new Set<() => void>();
  const connect = () =>
    new Promise<void>((ready, fail) => {
      socket = new WebSocket(`${base.replace("http", "ws")}/ws/cart?session_id=${visit}`);
      socket.onopen = () => socket.send(JSON.stringify({ type: "auth", access_token: auth.slice("Bearer ".length) }));
      socket.onmessage = (message) => {
        const data = JSON.parse(String(message.data)) as { type: string; cart?: LiveCart };
        if (data.cart) cart = data.cart;
        if (data.type === "ready") {
          if (lostAt !== null) gaps.push(Date.now() - lostAt);
          lostAt = null;
          ready();
        }
        for (const wake of waiting) wake();
      };
      socket.onclose = (event) => {
        if (closed) return;
        if (event.code !== 1012) {
          fail(new Error(`live cart closed with ${event.code} ${event.reason}`));
          return;
        }
        restarts++;
        lostAt = Date.now();
        setTimeout(() => void connect().catch(() => {}), Math.random() * 500);
      };
    });
  await connect();
  return {
    restarts: () => restarts,
    gaps: () => gaps,
    async until(check: (cart: LiveCart) => boolean, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!cart || !check(cart)) {
        if (Date.now() > deadline) throw new Error(`the live cart did not come round: ${JSON.stringify(cart)}`);
        await new Promise<void>((wake) => {
          waiting.add(wake);
          setTimeout(wake, 100);
        }).finally(() => waiting.clear());
      }
    },
    close() {
      closed = true;
      socket.close(1000);
    },
  };
}
