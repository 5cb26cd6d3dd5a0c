import { createHmac, randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { appPage } from "./app-page.ts";
import type { SimulatorCerts } from "./certs.ts";
import { approvingIdentity, TEST_IDENTITIES } from "./identities.ts";
import { controlPage } from "./page.ts";
import { type ErrorReply, invalid, validateAuth } from "./validate.ts";

export { type Identity, TEST_IDENTITIES } from "./identities.ts";

/**
 * A BankID RP API v6.0 simulator: the same HTTP API over HTTPS with mutual
 * TLS, orders that move through BankID's states and time limits, and a
 * control side (a page for people, JSON for tests) that plays the user's
 * BankID app: scan the QR code, open the app, approve or cancel.
 */

type Order = {
  orderRef: string;
  autoStartToken: string;
  qrStartToken: string;
  qrStartSecret: string;
  createdAt: number;
  endUserIp: string;
  userVisibleData: string | null;
  userVisibleDataFormat: string | null;
  returnUrl: string | null;
  /** The relying party's `web` details (referringDomain, userAgent, deviceIdentifier), as sent. */
  web: Record<string, unknown> | null;
  requiredPersonalNumber: string | null;
  status: "pending" | "failed" | "complete";
  hintCode: string;
  /** When the app picked the order up (QR scanned or app opened). */
  connectedAt: number | null;
  completionData: object | null;
  finalCollected: boolean;
  /** How many times the RP collected this order: BankID asks for at most one call per 2 s. */
  collectCalls: number;
};

export type SimulatorOptions = {
  certs: SimulatorCerts;
  /** No app picked the order up in this time: startFailed. BankID: 30 s. */
  startTimeoutMs?: number;
  /** Picked up but not finished in this time: expiredTransaction. */
  orderTimeoutMs?: number;
  now?: () => number;
};

export function createBankIdSimulator(opts: SimulatorOptions) {
  let startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  let orderTimeoutMs = opts.orderTimeoutMs ?? 180_000;
  const now = opts.now ?? Date.now;
  const orders = new Map<string, Order>();
  /** Errors queued by tests for the next RP calls (maintenance, alreadyInProgress...). */
  const queuedErrors: ErrorReply[] = [];

  const fail = (o: Order, hintCode: string) => {
    o.status = "failed";
    o.hintCode = hintCode;
  };

  /** Time limits are checked whenever an order is looked at. */
  function age(o: Order) {
    if (o.status !== "pending") return;
    if (o.connectedAt === null && now() - o.createdAt > startTimeoutMs) fail(o, "startFailed");
    else if (o.connectedAt !== null && now() - o.connectedAt > orderTimeoutMs) fail(o, "expiredTransaction");
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }
  const rpError = (res: ServerResponse, e: ErrorReply) =>
    send(res, e.status, { errorCode: e.errorCode, details: e.details });

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const v = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  }

  async function handleRp(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "https://localhost");
    if (!url.pathname.startsWith("/rp/v6.0/"))
      return rpError(res, { status: 404, errorCode: "notFound", details: "Not found" });
    if (req.method !== "POST") return rpError(res, { status: 405, errorCode: "methodNotAllowed", details: "Use POST" });
    if (req.headers["content-type"] !== "application/json") {
      return rpError(res, {
        status: 415,
        errorCode: "unsupportedMediaType",
        details: "Content-Type must be application/json",
      });
    }
    const body = await readJson(req);
    if (!body) return rpError(res, invalid("Invalid JSON"));
    const queued = queuedErrors.shift();
    if (queued) return rpError(res, queued);

    const endpoint = url.pathname.slice("/rp/v6.0/".length);
    if (endpoint === "auth" || endpoint === "sign") {
      const problem = validateAuth(body);
      if (problem) return rpError(res, problem);
      if (endpoint === "sign" && body.userVisibleData === undefined)
        return rpError(res, invalid("userVisibleData is required"));
      const requirement = (body.requirement ?? {}) as { personalNumber?: string };
      const required = typeof requirement.personalNumber === "string" ? requirement.personalNumber : null;
      if (required) {
        const busy = [...orders.values()].find((o) => o.status === "pending" && o.requiredPersonalNumber === required);
        if (busy) {
          fail(busy, "cancelled");
          return rpError(res, { status: 400, errorCode: "alreadyInProgress", details: "Order already in progress" });
        }
      }
      const order: Order = {
        orderRef: randomUUID(),
        autoStartToken: randomUUID(),
        qrStartToken: randomUUID(),
        qrStartSecret: randomUUID(),
        createdAt: now(),
        endUserIp: body.endUserIp as string,
        userVisibleData:
          typeof body.userVisibleData === "string"
            ? Buffer.from(body.userVisibleData, "base64").toString("utf8")
            : null,
        userVisibleDataFormat: typeof body.userVisibleDataFormat === "string" ? body.userVisibleDataFormat : null,
        returnUrl: typeof body.returnUrl === "string" ? body.returnUrl : null,
        web: typeof body.web === "object" && body.web !== null ? (body.web as Record<string, unknown>) : null,
        requiredPersonalNumber: required,
        status: "pending",
        hintCode: "outstandingTransaction",
        connectedAt: null,
        completionData: null,
        finalCollected: false,
        collectCalls: 0,
      };
      orders.set(order.orderRef, order);
      const { orderRef, autoStartToken, qrStartToken, qrStartSecret } = order;
      return send(res, 200, { orderRef, autoStartToken, qrStartToken, qrStartSecret });
    }
    if (endpoint === "collect" || endpoint === "cancel") {
      const order = typeof body.orderRef === "string" ? orders.get(body.orderRef) : undefined;
      if (!order) return rpError(res, invalid("No such order"));
      if (endpoint === "cancel") {
        orders.delete(order.orderRef);
        return send(res, 200, {});
      }
      order.collectCalls++;
      age(order);
      if (order.status === "pending")
        return send(res, 200, { orderRef: order.orderRef, status: "pending", hintCode: order.hintCode });
      // A final state can be collected once.
      if (order.finalCollected) return rpError(res, invalid("Order already collected"));
      order.finalCollected = true;
      if (order.status === "failed")
        return send(res, 200, { orderRef: order.orderRef, status: "failed", hintCode: order.hintCode });
      return send(res, 200, { orderRef: order.orderRef, status: "complete", completionData: order.completionData });
    }
    return rpError(res, { status: 404, errorCode: "notFound", details: "Not found" });
  }

  /** What a scanned QR code must say at this second (±1 s for the trip). */
  function qrMatches(o: Order, qr: string): boolean {
    const [prefix, token, time, code] = qr.split(".");
    if (prefix !== "bankid" || token !== o.qrStartToken || !time || !/^\d+$/.test(time)) return false;
    const elapsed = Math.floor((now() - o.createdAt) / 1000);
    if (Math.abs(Number(time) - elapsed) > 1) return false;
    return createHmac("sha256", o.qrStartSecret).update(time).digest("hex") === code;
  }

  function publicOrder(o: Order) {
    age(o);
    return {
      orderRef: o.orderRef,
      status: o.status,
      hintCode: o.hintCode,
      endUserIp: o.endUserIp,
      userVisibleData: o.userVisibleData,
      userVisibleDataFormat: o.userVisibleDataFormat,
      returnUrl: o.returnUrl,
      web: o.web,
      ageSeconds: Math.floor((now() - o.createdAt) / 1000),
      collectCalls: o.collectCalls,
    };
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && (url.pathname === "/" || url.pathname === "/app")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      return res.end(url.pathname === "/app" ? appPage() : controlPage());
    }
    if (req.method === "GET" && url.pathname === "/api/identities") return send(res, 200, TEST_IDENTITIES);
    if (req.method === "GET" && url.pathname === "/api/orders") {
      const list = [...orders.values()].map(publicOrder);
      return send(res, 200, url.searchParams.get("all") ? list : list.filter((o) => o.status === "pending"));
    }
    if (req.method !== "POST") return send(res, 404, { error: "not found" });
    const body = (await readJson(req)) ?? {};

    if (url.pathname === "/api/config") {
      if (typeof body.startTimeoutMs === "number") startTimeoutMs = body.startTimeoutMs;
      if (typeof body.orderTimeoutMs === "number") orderTimeoutMs = body.orderTimeoutMs;
      return send(res, 200, { startTimeoutMs, orderTimeoutMs });
    }
    if (url.pathname === "/api/next-error") {
      queuedErrors.push({
        status: Number(body.status ?? 400),
        errorCode: String(body.errorCode ?? "internalError"),
        details: String(body.details ?? "Simulated error"),
      });
      return send(res, 200, { queued: queuedErrors.length });
    }
    if (url.pathname === "/api/autostart") {
      const order = [...orders.values()].find((o) => o.autoStartToken === body.autoStartToken);
      if (!order) return send(res, 404, { error: "unknown autoStartToken" });
      age(order);
      if (order.status !== "pending") return send(res, 409, { error: `order is ${order.status}` });
      order.connectedAt ??= now();
      order.hintCode = "started";
      return send(res, 200, publicOrder(order));
    }
    const m = /^\/api\/orders\/([\w-]+)\/(scan|approve|cancel|fail)$/.exec(url.pathname);
    const order = m ? orders.get(m[1]!) : undefined;
    if (!m || !order) return send(res, 404, { error: "unknown order" });
    age(order);
    if (order.status !== "pending") return send(res, 409, { error: `order is ${order.status}` });
    switch (m[2]) {
      case "scan":
        if (typeof body.qr !== "string" || !qrMatches(order, body.qr))
          return send(res, 422, { error: "QR code does not match this second" });
        order.connectedAt ??= now();
        order.hintCode = "userSign";
        break;
      case "approve": {
        const identity = approvingIdentity(body);
        if ("error" in identity) return send(res, 400, identity);
        if (order.requiredPersonalNumber && order.requiredPersonalNumber !== identity.personalNumber) {
          return send(res, 409, { error: "this order is for another person" });
        }
        order.connectedAt ??= now();
        order.status = "complete";
        order.hintCode = "";
        order.completionData = {
          user: identity,
          device: { ipAddress: order.endUserIp, uhi: "simulated-device" },
          bankIdIssueDate: "2024-01-15",
          stepUp: { mrtd: false },
          signature: Buffer.from(`<simulated-signature>${order.orderRef}</simulated-signature>`).toString("base64"),
          ocspResponse: Buffer.from("simulated-ocsp").toString("base64"),
        };
        break;
      }
      case "cancel":
        fail(order, "userCancel");
        break;
      case "fail":
        fail(order, String(body.hintCode ?? "certificateErr"));
        break;
    }
    return send(res, 200, publicOrder(order));
  }

  const wrap =
    (handler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) =>
    (req: IncomingMessage, res: ServerResponse) => {
      handler(req, res).catch(() => {
        if (!res.headersSent) send(res, 500, { errorCode: "internalError", details: "Simulator error" });
      });
    };

  const rp = https.createServer(
    {
      key: opts.certs.serverKeyPem,
      cert: opts.certs.serverCertPem,
      ca: opts.certs.caPem,
      // Mutual TLS: only RPs holding a certificate from our CA get in.
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: "TLSv1.2",
    },
    wrap(handleRp),
  );
  const control = http.createServer(wrap(handleControl));

  const listen = (server: http.Server | https.Server, port: number, host: string) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve((server.address() as { port: number }).port));
    });
  const close = (server: http.Server | https.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    orders,
    /**
     * The RP API stays on loopback (its certificate names only loopback); the
     * control side and the app page listen on `controlHost`, so that a phone
     * on the network can reach them when the server listens there too.
     */
    async listen(ports: { rp?: number; control?: number; controlHost?: string } = {}) {
      const rpPort = await listen(rp, ports.rp ?? 0, "127.0.0.1");
      const controlHost = ports.controlHost ?? "127.0.0.1";
      const controlPort = await listen(control, ports.control ?? 0, controlHost);
      // A wildcard address is no place to send a browser; loopback reaches the same socket.
      const shown = ["0.0.0.0", "::", "[::]"].includes(controlHost)
        ? "127.0.0.1"
        : isIP(controlHost) === 6
          ? `[${controlHost}]`
          : controlHost;
      return {
        rpUrl: `https://127.0.0.1:${rpPort}/rp/v6.0`,
        controlUrl: `http://${shown}:${controlPort}`,
        appUrl: `http://${shown}:${controlPort}/app`,
      };
    },
    async close() {
      await Promise.all([close(rp), close(control)]);
    },
  };
}

export type BankIdSimulator = ReturnType<typeof createBankIdSimulator>;
