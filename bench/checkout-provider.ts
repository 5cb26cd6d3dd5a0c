/**
 * The outside systems a checkout needs, each its own process as `npm start`
 * runs them: the payment simulator (its Stripe API behind a timing relay in
 * this process, so every provider round trip is measured where the server
 * sends it) and the BankID simulator, through which the bench signs in as
 * many shoppers as it needs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Child, HOST, start, stop } from "./lib.ts";

/** One request the server made to the payment provider: what, and from arrival to the answer's last byte (performance.now()). */
export type ProviderCall = { what: string; start: number; end: number; status: number };

export type Outside = {
  /** What the server is given: the relay's address and the simulator's key, and BankID's settings. */
  env: Record<string, string>;
  /** The BankID simulator's control side (approves sign-ins). */
  bankidControl: string;
  /** Every provider request so far, in the order they were answered. */
  calls: ProviderCall[];
  close: () => Promise<void>;
};

/** Waits for a simulator to print its settings (`  NAME=value` lines) and answers them. */
export async function settingsOf(child: Child, last: string): Promise<Record<string, string>> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`simulator exited with code ${child.exitCode}: ${child.output}`);
    const at = child.output.indexOf(`${last}=`);
    if (at !== -1 && child.output.indexOf("\n", at) !== -1) {
      return Object.fromEntries([...child.output.matchAll(/^\s+(\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    }
    await sleep(50);
  }
  throw new Error(`simulator printed no ${last} within 30 s: ${child.output}`);
}

const whatOf = (method: string, url: string) =>
  method === "POST" && url === "/v1/payment_intents"
    ? "authorize (create and confirm a PaymentIntent, manual capture)"
    : /^\/v1\/payment_intents\/[^/]+\/capture$/.test(url)
      ? "capture"
      : `${method} ${url.split("?")[0]!.replace(/\/[a-z]+_[A-Za-z0-9]+/g, "/…")}`;

/** Starts both simulators and the relay; `close` stops them. */
export async function startOutside(): Promise<Outside> {
  const bankidDir = mkdtempSync(path.join(os.tmpdir(), "glide-bench-bankid-"));
  const payments = start(["tools/payment-simulator/main.ts", "--port", "0", "--host", HOST], {});
  const bankid = start(
    ["tools/bankid-simulator/main.ts", "--dir", bankidDir, "--rp-port", "0", "--control-port", "0", "--host", HOST],
    {},
  );
  const calls: ProviderCall[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let relay: http.Server | null = null;
  try {
    const pay = await settingsOf(payments, "STRIPE_SECRET_KEY");
    const bid = await settingsOf(bankid, "BANKID_CA");
    const control = /approve logins at (\S+),/.exec(bankid.output)?.[1];
    if (!control) throw new Error(`the BankID simulator printed no control address: ${bankid.output}`);
    const target = new URL(pay.STRIPE_API_BASE!);
    // Forwards each request as it came and records how long the simulator took to answer it.
    relay = http.createServer((req, res) => {
      const started = performance.now();
      const out = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("end", () => {
            calls.push({
              what: whatOf(req.method ?? "", req.url ?? ""),
              start: started,
              end: performance.now(),
              status: answer.statusCode ?? 0,
            });
          });
        },
      );
      out.on("error", () => res.destroy());
      req.pipe(out);
    });
    const server = relay;
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    const port = (relay.address() as { port: number }).port;
    return {
      env: {
        STRIPE_SECRET_KEY: pay.STRIPE_SECRET_KEY!,
        STRIPE_API_BASE: `http://${HOST}:${port}`,
        BANKID_URL: bid.BANKID_URL!,
        BANKID_PFX: bid.BANKID_PFX!,
        BANKID_PASSPHRASE: bid.BANKID_PASSPHRASE ?? "",
        BANKID_CA: bid.BANKID_CA!,
      },
      bankidControl: control,
      calls,
      close: async () => {
        agent.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([stop(payments), stop(bankid)]);
        rmSync(bankidDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    agent.destroy();
    relay?.close();
    await Promise.all([stop(payments), stop(bankid)]);
    rmSync(bankidDir, { recursive: true, force: true });
    throw err;
  }
}

/** A valid, adult personal number (YYYYMMDDNNNC, Luhn check digit over the last ten), the n-th of a series. */
export function personalNumber(n: number): string {
  const year = 1960 + (n % 40);
  const month = String(1 + (n % 12)).padStart(2, "0");
  const day = String(1 + (n % 28)).padStart(2, "0");
  const serial = String(100 + Math.floor(n / 40)).padStart(3, "0");
  const body = `${year}${month}${day}${serial}`;
  const digits = body.slice(2);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[i]);
    // The check digit comes last, so the first of these nine is doubled.
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export type Shopper = { id: string; token: string };

/**
 * A shopper signed in through BankID as a phone does: the server starts the
 * order, the simulator's app approves it as person `n`, the server collects
 * it and answers the tokens.
 */
export async function bankIdShopper(base: string, control: string, n: number): Promise<Shopper> {
  const init = await fetch(`${base}/api/v1/auth/init`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
    signal: AbortSignal.timeout(10_000),
  });
  if (!init.ok) throw new Error(`POST /api/v1/auth/init answered ${init.status}: ${await init.text()}`);
  const cookie = init.headers
    .getSetCookie()
    .find((c) => c.startsWith("glide_device="))
    ?.split(";")[0];
  const { order_ref } = (await init.json()) as { order_ref: string };
  const approve = await fetch(`${control}/api/orders/${order_ref}/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ personalNumber: personalNumber(n), name: `Bench Shopper ${n}` }),
  });
  if (!approve.ok) throw new Error(`the BankID simulator refused the approval: ${await approve.text()}`);
  for (let attempt = 0; attempt < 10; attempt++) {
    const collect = await fetch(`${base}/api/v1/auth/collect`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ order_ref }),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await collect.json()) as { status?: string; access_token?: string; user?: { id: string } };
    if (!collect.ok) throw new Error(`POST /api/v1/auth/collect answered ${collect.status}: ${JSON.stringify(answer)}`);
    if (answer.status === "complete") return { id: answer.user!.id, token: answer.access_token! };
    if (answer.status === "failed") throw new Error(`BankID sign-in failed: ${JSON.stringify(answer)}`);
    // The server asks BankID about an order at most every 2 s.
    await sleep(2100);
  }
  throw new Error("BankID sign-in did not complete");
}
