import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { cardPageHandler } from "./card-page.ts";
import { controlApi, type Faults, NO_FAULTS } from "./control.ts";
import { createCustomer, deleteCustomer, retrieveCustomer, updateCustomer } from "./customers-api.ts";
import { ApiError } from "./errors.ts";
import { canonical, FormError, type FormObject, parseForm, readBody } from "./form.ts";
import { createIdempotency } from "./idempotency.ts";
import { type Ctx, createStore, newId, type Reply } from "./objects.ts";
import {
  attachPaymentMethod,
  createPaymentMethod,
  detachPaymentMethod,
  retrievePaymentMethod,
} from "./payment-methods-api.ts";
import {
  cancelPaymentIntent,
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  createRefund,
  retrieveCharge,
  retrievePaymentIntent,
  retrieveRefund,
} from "./payments-api.ts";
import { cancelSetupIntent, confirmSetupIntent, createSetupIntent, retrieveSetupIntent } from "./setup-intents-api.ts";
import { loadState, statePersister } from "./state-file.ts";

/**
 * A simulator of the part of Stripe's HTTP API the payment provider uses:
 * customers, PaymentMethods, SetupIntents, PaymentIntents with manual
 * capture, refunds. Form bodies in Stripe's bracket notation, Bearer secret
 * key, Stripe's JSON objects and errors, Idempotency-Key semantics, Stripe's
 * test cards. Beside it, on the same port: a hosted card page (`/card`) and a
 * control API for tests (`/control/…`: counts, slow and failing modes).
 * The API and the control side answer loopback callers only.
 */

export const API_VERSION = "2026-10-28.endive";

type Route = { method: string; pattern: RegExp; handler: (ctx: Ctx) => Reply };
const routes: Route[] = [
  { method: "POST", pattern: /^\/v1\/customers$/, handler: createCustomer },
  { method: "GET", pattern: /^\/v1\/customers\/([\w]+)$/, handler: retrieveCustomer },
  { method: "POST", pattern: /^\/v1\/customers\/([\w]+)$/, handler: updateCustomer },
  { method: "DELETE", pattern: /^\/v1\/customers\/([\w]+)$/, handler: deleteCustomer },
  { method: "POST", pattern: /^\/v1\/payment_methods$/, handler: createPaymentMethod },
  { method: "GET", pattern: /^\/v1\/payment_methods\/([\w]+)$/, handler: retrievePaymentMethod },
  { method: "POST", pattern: /^\/v1\/payment_methods\/([\w]+)\/attach$/, handler: attachPaymentMethod },
  { method: "POST", pattern: /^\/v1\/payment_methods\/([\w]+)\/detach$/, handler: detachPaymentMethod },
  { method: "POST", pattern: /^\/v1\/setup_intents$/, handler: createSetupIntent },
  { method: "GET", pattern: /^\/v1\/setup_intents\/([\w]+)$/, handler: retrieveSetupIntent },
  { method: "POST", pattern: /^\/v1\/setup_intents\/([\w]+)\/confirm$/, handler: confirmSetupIntent },
  { method: "POST", pattern: /^\/v1\/setup_intents\/([\w]+)\/cancel$/, handler: cancelSetupIntent },
  { method: "POST", pattern: /^\/v1\/payment_intents$/, handler: createPaymentIntent },
  { method: "GET", pattern: /^\/v1\/payment_intents\/([\w]+)$/, handler: retrievePaymentIntent },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([\w]+)\/confirm$/, handler: confirmPaymentIntent },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([\w]+)\/capture$/, handler: capturePaymentIntent },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([\w]+)\/cancel$/, handler: cancelPaymentIntent },
  { method: "GET", pattern: /^\/v1\/charges\/([\w]+)$/, handler: retrieveCharge },
  { method: "POST", pattern: /^\/v1\/refunds$/, handler: createRefund },
  { method: "GET", pattern: /^\/v1\/refunds\/([\w]+)$/, handler: retrieveRefund },
];

export type PaymentSimulatorOptions = {
  /** The one secret key the API accepts; made up (sk_test_…) when not given. */
  secretKey?: string;
  now?: () => number;
  /**
   * A JSON file the objects are kept in across restarts (state-file.ts):
   * read at the start when it exists, written after changes.
   */
  stateFile?: string;
};

export function createPaymentSimulator(opts: PaymentSimulatorOptions = {}) {
  const secretKey = opts.secretKey ?? randomSecretKey();
  const now = opts.now ?? Date.now;
  const store = createStore(now);
  const idempotency = createIdempotency(now);
  const state: { faults: Faults } = { faults: { ...NO_FAULTS } };
  if (opts.stateFile) loadState(opts.stateFile, store, idempotency);
  const persist = opts.stateFile ? statePersister(opts.stateFile, store, idempotency) : null;

  const loopback = (req: IncomingMessage) => {
    const a = req.socket.remoteAddress ?? "";
    return a === "::1" || a.startsWith("127.") || a.startsWith("::ffff:127.");
  };

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-cache, no-store",
      ...headers,
    });
    res.end(text);
  }

  function authorised(req: IncomingMessage): ApiError | null {
    const header = req.headers.authorization ?? "";
    let key = "";
    if (header.startsWith("Bearer ")) key = header.slice(7).trim();
    else if (header.startsWith("Basic ")) key = Buffer.from(header.slice(6), "base64").toString("utf8").split(":")[0]!;
    if (!key) {
      return new ApiError(
        401,
        {
          type: "invalid_request_error",
          message: "You did not provide an API key. Send it in the Authorization header as 'Bearer sk_test_…'.",
        },
        false,
      );
    }
    if (key !== secretKey) {
      return new ApiError(
        401,
        { type: "invalid_request_error", message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` },
        false,
      );
    }
    return null;
  }

  /** A fault set through the control API, if it applies to this request (and uses one of its `times`). */
  function takeFault(path: string): Faults | null {
    const f = state.faults;
    if (f.mode === "none" && f.delayMs === 0) return null;
    if (f.path && !path.startsWith(f.path)) return null;
    const taken = { ...f };
    if (f.times !== null && --f.times <= 0) state.faults = { ...NO_FAULTS };
    return taken;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const requestId = newId("req", 14);
    const base: Record<string, string> = {
      "request-id": requestId,
      "stripe-version": String(req.headers["stripe-version"] ?? API_VERSION),
    };
    const fail = (e: ApiError) => send(res, e.status, { error: { ...e.body, request_log_url: null } }, base);
    const denied = authorised(req);
    if (denied) return fail(denied);

    const fault = takeFault(url.pathname);
    if (fault?.mode === "drop") return void req.socket.destroy();
    if (fault?.mode === "error") {
      return send(
        res,
        500,
        { error: { type: "api_error", message: "An error occurred on the simulated provider's side." } },
        { ...base, "stripe-should-retry": "true" },
      );
    }

    const method = req.method ?? "GET";
    let form: FormObject;
    try {
      const body = await readBody(req);
      const type = String(req.headers["content-type"] ?? "");
      if (body && !type.startsWith("application/x-www-form-urlencoded")) {
        throw new FormError("Send the parameters form-encoded (application/x-www-form-urlencoded).");
      }
      form = method === "POST" ? parseForm(body) : parseForm(url.search.slice(1));
    } catch (err) {
      return fail(new ApiError(400, { type: "invalid_request_error", message: (err as Error).message }, false));
    }

    let route: Route | undefined;
    let id = "";
    for (const r of routes) {
      const m = r.method === method ? r.pattern.exec(url.pathname) : null;
      if (m) {
        route = r;
        id = m[1] ?? "";
        break;
      }
    }
    if (!route) {
      return fail(
        new ApiError(
          404,
          { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname}).` },
          false,
        ),
      );
    }
    const keyHeader = req.headers["idempotency-key"];
    const key = method === "POST" && typeof keyHeader === "string" ? keyHeader : null;
    const headers = key ? { ...base, "idempotency-key": key } : base;

    const run = async (): Promise<{ status: number; body: unknown }> => {
      if (fault && fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
      try {
        return route.handler({ store, form, id, idempotencyKey: key, now });
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError(500, { type: "api_error", message: `Simulator error: ${(err as Error).message}` }, false);
      }
    };

    const answer = key
      ? await idempotency.run(key, `${method} ${url.pathname}\n${canonical(form)}`, requestId, run)
      : await run().then(
          (r) => ({ ...r, replayedFrom: null }),
          (e: ApiError) => ({ status: e.status, body: { error: e.body }, replayedFrom: null }),
        );
    if (fault?.mode === "drop_after") return void req.socket.destroy();
    const extra: Record<string, string> = answer.replayedFrom
      ? { "idempotent-replayed": "true", "original-request": answer.replayedFrom }
      : {};
    if (answer.status === 409) extra["stripe-should-retry"] = "true";
    send(res, answer.status, answer.body, { ...headers, ...extra });
  }

  const control = controlApi({ store, idempotency, state, send });
  const cardPage = cardPageHandler(store);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    // A POST or DELETE may change objects (a GET only reads); the control side's faults are not kept, but are rare.
    if (req.method !== "GET" && req.method !== "HEAD" && persist) res.once("close", persist.changed);
    if (url.pathname === "/card") return cardPage(req, res, url);
    if (!loopback(req)) return send(res, 403, { error: "the API and the control side answer loopback callers only" });
    if (url.pathname.startsWith("/v1/")) return handleApi(req, res, url);
    if (url.pathname === "/control" || url.pathname.startsWith("/control/")) return control(req, res, url);
    return send(res, 404, { error: "not found" });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: { type: "api_error", message: "Simulator error" } });
      else res.destroy();
    });
  });

  return {
    secretKey,
    store,
    /** Slow or failing answers for the next requests (see control.ts). */
    setFaults(f: Partial<Faults>) {
      state.faults = { ...NO_FAULTS, ...f };
    },
    idempotencyStats: (key: string) => idempotency.stats(key),
    async listen(opts: { port?: number; host?: string } = {}) {
      const host = opts.host ?? "127.0.0.1";
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(opts.port ?? 0, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const { port } = server.address() as { port: number };
      // A wildcard address is no place to send a browser; loopback reaches the same socket.
      const shown = ["0.0.0.0", "::", "[::]"].includes(host) ? "127.0.0.1" : isIP(host) === 6 ? `[${host}]` : host;
      return {
        /** STRIPE_API_BASE: the API answers loopback callers, so the server is given a loopback address. */
        apiBase: `http://127.0.0.1:${port}`,
        cardPageUrl: `http://${shown}:${port}/card`,
        controlUrl: `http://127.0.0.1:${port}/control`,
      };
    },
    /** Stops listening; what is not written to the state file yet is written now. */
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          persist?.flush();
          resolve();
        });
      });
    },
    /** Writes the state file now, if there is one and it is behind (a process that exits without close()). */
    flush: () => persist?.flush(),
  };
}

export type PaymentSimulator = ReturnType<typeof createPaymentSimulator>;

/** A random secret key of the simulator's kind, for a process that starts one. */
export const randomSecretKey = () => `sk_test_${randomBytes(24).toString("hex")}`;
