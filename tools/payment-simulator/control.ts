import type { IncomingMessage, ServerResponse } from "node:http";
import { parseForm } from "./form.ts";
import type { Idempotency } from "./idempotency.ts";
import type { Store } from "./objects.ts";

/**
 * The control side, for tests and demos (JSON, loopback only):
 *
 *   GET  /control/payment_intents?customer=…&idempotency_key=…   {count, data}
 *   GET  /control/charges?customer=…&payment_intent=…&idempotency_key=…
 *   GET  /control/refunds?payment_intent=…
 *   GET  /control/customers?metadata[shopper_id]=…
 *   GET  /control/idempotency?key=…   executions, replays, conflicts, mismatches, in_progress
 *   GET  /control/faults
 *   POST /control/faults {delay_ms, mode, times, path}
 *
 * Faults apply to the API's next requests (`times` of them, or until changed;
 * only paths starting with `path` when given): `delay_ms` holds each request
 * that long before it runs, its idempotency key held meanwhile; `mode` "drop"
 * closes the connection before the request runs, "drop_after" runs it (and
 * keeps its answer under its key) and then closes the connection unanswered,
 * "error" answers 500 without running it. `{}` turns faults off.
 */
export type Faults = {
  delayMs: number;
  mode: "none" | "drop" | "drop_after" | "error";
  times: number | null;
  path: string | null;
};
export const NO_FAULTS: Faults = { delayMs: 0, mode: "none", times: null, path: null };
const MODES = ["none", "drop", "drop_after", "error"] as const;

type Send = (res: ServerResponse, status: number, body: unknown) => void;

export function controlApi(deps: { store: Store; idempotency: Idempotency; state: { faults: Faults }; send: Send }) {
  const { store, idempotency, state, send } = deps;
  const list = <T>(items: Iterable<T>, keep: (x: T) => boolean, show: (x: T) => unknown) => {
    const data = [...items].filter(keep).map(show);
    return { count: data.length, data };
  };
  const faultsJson = () => ({
    delay_ms: state.faults.delayMs,
    mode: state.faults.mode,
    times: state.faults.times,
    path: state.faults.path,
  });

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

  function parseFaults(body: Record<string, unknown>): Faults | string {
    const delay = body.delay_ms ?? 0;
    if (!Number.isInteger(delay) || (delay as number) < 0 || (delay as number) > 600_000)
      return "delay_ms: 0 to 600000";
    const mode = body.mode ?? "none";
    if (!MODES.includes(mode as Faults["mode"])) return `mode: one of ${MODES.join(", ")}`;
    const times = body.times ?? null;
    if (times !== null && (!Number.isInteger(times) || (times as number) < 1)) return "times: a whole number from 1";
    const path = body.path ?? null;
    if (path !== null && (typeof path !== "string" || !path.startsWith("/v1/"))) return "path: starts with /v1/";
    return { delayMs: delay as number, mode: mode as Faults["mode"], times: times as number | null, path };
  }

  return async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL) {
    const q = url.searchParams;
    const matches = (filter: string, value: string | null) => !q.has(filter) || q.get(filter) === value;
    const path = url.pathname;
    if (req.method === "GET" && path === "/control/payment_intents") {
      const intents = list(
        store.paymentIntents.values(),
        (pi) => matches("customer", pi.customer) && matches("idempotency_key", pi.idempotencyKey),
        (pi) => ({
          id: pi.id,
          status: pi.status,
          amount: pi.amount,
          currency: pi.currency,
          description: pi.description,
          amount_capturable: pi.amountCapturable,
          amount_received: pi.amountReceived,
          customer: pi.customer,
          payment_method: pi.paymentMethod,
          idempotency_key: pi.idempotencyKey,
          metadata: pi.metadata,
        }),
      );
      return send(res, 200, intents);
    }
    if (req.method === "GET" && path === "/control/charges") {
      const charges = list(
        store.charges.values(),
        (ch) =>
          matches("customer", ch.customer) &&
          matches("payment_intent", ch.paymentIntent) &&
          matches("idempotency_key", ch.idempotencyKey),
        (ch) => ({
          id: ch.id,
          status: ch.status,
          amount: ch.amount,
          amount_captured: ch.amountCaptured,
          amount_refunded: ch.amountRefunded,
          captured: ch.captured,
          customer: ch.customer,
          payment_intent: ch.paymentIntent,
          failure_code: ch.failureCode,
          decline_code: ch.declineCode,
          idempotency_key: ch.idempotencyKey,
        }),
      );
      return send(res, 200, charges);
    }
    if (req.method === "GET" && path === "/control/refunds") {
      const refunds = list(
        store.refunds.values(),
        (re) => matches("payment_intent", re.paymentIntent),
        (re) => ({ id: re.id, amount: re.amount, charge: re.charge, payment_intent: re.paymentIntent }),
      );
      return send(res, 200, refunds);
    }
    if (req.method === "GET" && path === "/control/customers") {
      const wanted = parseForm(url.search.slice(1)).metadata;
      const pairs = wanted && typeof wanted === "object" && !Array.isArray(wanted) ? Object.entries(wanted) : [];
      const customers = list(
        store.customers.values(),
        (c) => !c.deleted && pairs.every(([k, v]) => c.metadata[k] === v),
        (c) => ({ id: c.id, email: c.email, metadata: c.metadata, default_payment_method: c.defaultPaymentMethod }),
      );
      return send(res, 200, customers);
    }
    if (req.method === "GET" && path === "/control/idempotency") {
      const key = q.get("key");
      if (!key) return send(res, 400, { error: "key is required" });
      return send(res, 200, { key, ...idempotency.stats(key) });
    }
    if (path === "/control/faults") {
      if (req.method === "GET") return send(res, 200, faultsJson());
      if (req.method === "POST") {
        const body = await readJson(req);
        const faults = body ? parseFaults(body) : "a JSON object";
        if (typeof faults === "string") return send(res, 400, { error: faults });
        state.faults = faults;
        return send(res, 200, faultsJson());
      }
    }
    return send(res, 404, { error: "not found" });
  };
}
