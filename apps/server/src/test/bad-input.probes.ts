import { randomUUID } from "node:crypto";
import type { InjectOptions } from "fastify";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import {
  BAD_CSV,
  BAD_PATH_VALUES,
  BAD_QUERY_VALUES,
  badValuesFor,
  fieldPaths,
  RAW_BODIES,
  validValue,
  withField,
} from "./bad-values.ts";
import { fillPath, type Operation } from "./route-table.ts";

/**
 * The requests that feed every route bad input: for each operation of the
 * OpenAPI document, its path, query, credentials and body made wrong one at a
 * time, around good values (real rows, bodies the route accepts) so that
 * each bad value reaches as deep into the handler as it can.
 */

/** The ids of real rows (and other good values) by name, filled in by the test's setup. */
export const real: Record<string, string> = {};

/** Whose id an `:id` is, by the path it stands in (the first match wins). */
const ID_OF: Array<[prefix: string, key: string]> = [
  ["/api/v1/products/", "product"],
  ["/api/v1/stores/", "store"],
  ["/api/v1/cameras/systems/", "system"],
  ["/api/v1/cameras/cameras/", "camera"],
  ["/api/v1/cameras/snapshots/", "snapshot"],
  ["/api/v1/admin/orders/", "order"],
  // The first order has an open dispute already: a new one can be opened only on another.
  ["/api/v1/receipts/:id/dispute", "undisputed_order"],
  ["/api/v1/receipts/", "order"],
  ["/api/v1/admin/disputes/", "dispute"],
  ["/api/v1/admin/spot-checks/", "spot_check"],
  // Staff settle only a visit left unpaid.
  ["/api/v1/admin/sessions/:id/charge", "unpaid_session"],
  ["/api/v1/admin/sessions/:id/write-off", "unpaid_session_to_write_off"],
  // Staff let out only a shopper inside the store.
  ["/api/v1/admin/sessions/:id/let-out", "session_to_let_out"],
  ["/api/v1/admin/sessions/", "paid_session"],
  ["/api/v1/admin/audit/", "audit"],
  ["/api/v1/vat-rates/", "vat_rate"],
  ["/api/v1/campaigns/", "campaign"],
  ["/api/v1/offers/", "offer"],
  ["/api/v1/price-groups/", "price_group"],
];

/** Good values of other path parameters by the path they stand in, where `real` means another thing by the name. */
const PARAMS_OF: Record<string, Record<string, string>> = {
  "/api/v1/pant-amounts/:country/:code": { country: "SE", code: "can" },
  // Read when the probes are made, after the setup has made the product.
  "/api/v1/stores/:id/prices/:productId": {
    get productId() {
      return real.product ?? "";
    },
  },
  "/api/v1/price-groups/:id/prices/:productId": {
    get productId() {
      return real.product ?? "";
    },
  },
};

/** Good values of path parameters: rows that exist, so a mutation of one parameter reaches the handler. */
function realParams(op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters.filter((x) => x.in === "path")) {
    if (op.method === "DELETE") out[p.name] = randomUUID();
    else if (p.name === "id") {
      const key = ID_OF.find(([prefix]) => op.path === prefix || op.path.startsWith(prefix))?.[1];
      if (!key || !real[key]) throw new Error(`${op.key}: no real row for :id; add its path to ID_OF`);
      out[p.name] = real[key];
    } else out[p.name] = PARAMS_OF[op.path]?.[p.name] ?? real[p.name] ?? String(validValue(p.schema, p.name));
  }
  if (op.path.endsWith("*")) out["*"] = "x";
  return out;
}

/**
 * Bodies the route accepts (real ids, unique SKUs), so changing one field
 * tests that field deep in the handler; other routes get one generated from
 * their schema. The login's is well-formed but wrong: it must not sign in.
 */
export const VALID_BODIES: Record<string, () => unknown> = {
  "POST /api/v1/admin/orders/:id/refunds": () => ({
    idempotency_key: randomUUID(),
    reason: "Fel vara",
    lines: [{ line_id: real.order_line, quantity: 1 }],
  }),
  "PUT /api/v1/admin/spot-checks/:id/outcome": () => ({ idempotency_key: randomUUID(), outcome: "ok" }),
  "PUT /api/v1/admin/disputes/:id": () => ({ state: "resolved", resolution: "Återbetalt" }),
  "POST /api/v1/admin/sessions/:id/write-off": () => ({ reason: "Stulet" }),
  "POST /api/v1/receipts/:id/dispute": () => ({ message: "Fel pris" }),
  "POST /api/v1/cameras/systems": () => ({ name: "System", host: "127.0.0.1", port: 1, store_id: real.store }),
  "PUT /api/v1/cameras/systems/:id": () => ({ name: "System" }),
  "POST /api/v1/cameras/systems/test": () => ({
    connection_type: "onvif",
    host: "127.0.0.1",
    port: 1,
    store_id: real.store,
    system_id: real.system,
  }),
  "POST /api/v1/cameras/cameras": () => ({ name: "Kamera", camera_system_id: real.system }),
  "PUT /api/v1/cameras/cameras/:id": () => ({ name: "Kamera" }),
  "POST /api/v1/cart/scan": () => ({ session_id: real.session_id, barcode: real.code }),
  "PUT /api/v1/cart/item/:item_id": () => ({ quantity: 2 }),
  "POST /api/v1/products": () => ({ sku: `BI-${randomUUID().slice(0, 8)}`, name: "Vara", price: 5 }),
  "PUT /api/v1/products/:id": () => ({ name: "Vara" }),
  "POST /api/v1/stores": () => ({ name: "Butik" }),
  "PUT /api/v1/stores/:id": () => ({ name: "Butik" }),
  "POST /api/v1/stores/:id/modules/:moduleId": () => ({ enabled: true }),
  "POST /api/v1/stores/:id/device-keys": () => ({ kind: "door_scanner" }),
  "POST /api/v1/sessions/entry": () => ({ store_id: real.store }),
  // Days of their own, so a variation that is still valid is taken (and the next one meets it: 409).
  "POST /api/v1/vat-rates": () => ({ country: "NO", category: "food", rate: 15, valid_from: "2090-01-01" }),
  "PUT /api/v1/vat-rates/:id": () => ({ country: "NO", category: "standard", rate: 25, valid_from: "2080-01-01" }),
  "PUT /api/v1/pant-amounts/:country/:code": () => ({ amount: 2 }),
  "PUT /api/v1/stores/:id/prices/:productId": () => ({ price: 4.5 }),
  "POST /api/v1/price-groups": () => ({ name: `Grupp ${randomUUID().slice(0, 8)}` }),
  "PUT /api/v1/price-groups/:id": () => ({ name: `Grupp ${randomUUID().slice(0, 8)}` }),
  "PUT /api/v1/price-groups/:id/prices/:productId": () => ({ price: 4.5 }),
  "PUT /api/v1/stores/:id/price-group": () => ({ price_group_id: real.price_group }),
  // The product costs 5 kr: a campaign at 1 kr is below it.
  "POST /api/v1/campaigns": () => ({
    product_id: real.product,
    store_id: real.store,
    price: 1,
    starts_on: "2090-01-01",
    ends_on: "2090-01-31",
  }),
  "PUT /api/v1/campaigns/:id": () => ({
    product_id: real.product,
    store_id: real.store,
    price: 2,
    starts_on: "2090-02-01",
    ends_on: "2090-02-28",
  }),
  // The product costs 5 kr: 2 of it for 8 kr is below 10 kr.
  "POST /api/v1/offers": () => ({
    label: "2 för 8",
    kind: "amount",
    buy: 2,
    amount: 8,
    product_ids: [real.product],
    store_id: real.store,
    starts_on: "2090-01-01",
    ends_on: "2090-01-31",
    limit_per_visit: 2,
  }),
  "PUT /api/v1/offers/:id": () => ({
    label: "3 för 2",
    kind: "one_free",
    buy: 3,
    amount: null,
    product_ids: [real.product],
    store_id: real.store,
    starts_on: "2090-02-01",
    ends_on: "2090-02-28",
    limit_per_visit: null,
  }),
};

function validBody(op: Operation): unknown {
  const json = op.body["application/json"];
  if (op.key === "POST /api/v1/sessions/door/scan") {
    return { session_id: real.session_id, session_token: "x", store_id: real.store };
  }
  if (op.key === "POST /api/v1/admin/login") return { email: "nobody@example.se", password: "wrong password" };
  return VALID_BODIES[op.key]?.() ?? (json ? validValue(json) : undefined);
}

/** One bad request: what it is, where it goes, and what it sends. */
export type Probe = {
  label: string;
  url: string;
  payload?: InjectOptions["payload"];
  contentType?: string;
  /** Credentials that replace the good ones. */
  headers?: Record<string, string>;
};

/** Credentials as an attacker would send them; each must be refused, never reach SQL as they are. */
const BAD_CREDENTIALS: Record<string, string>[] = [
  { cookie: `${ADMIN_COOKIE}=%00abc; glide_device=%00` },
  { cookie: `${ADMIN_COOKIE}=${"x".repeat(5000)}` },
  { authorization: "Bearer a\u0001b" },
  { authorization: `Device ${"x".repeat(10_000)}` },
  { authorization: "Basic %00" },
];

/** Every bad request made for `op`. */
export function probes(op: Operation): Probe[] {
  const params = realParams(op);
  const base = fillPath(op.path, params);
  const out: Probe[] = [];
  const json = op.body["application/json"];
  const body = validBody(op);
  const sendsBody = op.method !== "GET" && op.method !== "DELETE";
  const withBody = (p: Probe): Probe =>
    sendsBody && p.payload === undefined && body !== undefined && !isText(op)
      ? { ...p, payload: body as InjectOptions["payload"], contentType: "application/json" }
      : p;

  for (const p of op.parameters.filter((x) => x.in === "path")) {
    for (const value of BAD_PATH_VALUES) {
      out.push(
        withBody({
          label: `path ${p.name}=${value.slice(0, 20)}`,
          url: fillPath(op.path, { ...params, [p.name]: value }),
        }),
      );
    }
  }
  const query = op.parameters.filter((x) => x.in === "query");
  for (const p of query) {
    for (const value of BAD_QUERY_VALUES) {
      out.push(withBody({ label: `query ${p.name}=${value.slice(0, 20)}`, url: `${base}?${p.name}=${value}` }));
    }
    out.push(withBody({ label: `query ${p.name} twice`, url: `${base}?${p.name}=a&${p.name}=b` }));
  }
  if (query.length) out.push(withBody({ label: "unknown query parameter", url: `${base}?__extra=%00` }));
  for (const bad of BAD_CREDENTIALS) {
    out.push(withBody({ label: `credentials ${JSON.stringify(bad).slice(0, 40)}`, url: base, headers: bad }));
  }

  if (!sendsBody) return out;
  for (const raw of RAW_BODIES)
    out.push({ label: raw.label, url: base, payload: raw.payload, contentType: raw.contentType });
  if (isText(op)) {
    for (const csv of BAD_CSV) {
      for (const q of ["?dry_run=true", "?dry_run=false"]) {
        out.push({ label: `CSV ${csv.slice(0, 30)}${q}`, url: `${base}${q}`, payload: csv, contentType: "text/csv" });
      }
    }
  }
  if (!json || body === undefined) return out;
  for (const extra of ["x", "\u0000", { admin: true }]) {
    out.push({
      label: `extra field ${JSON.stringify(extra)}`,
      url: base,
      payload: { ...(body as object), __extra: extra },
      contentType: "application/json",
    });
  }
  for (const [i, field] of fieldPaths(json).entries()) {
    const name = field.path.join(".");
    if (field.path.length === 1 && json.required?.includes(name)) {
      out.push({
        label: `missing ${name}`,
        url: base,
        payload: withField(body, field.path, undefined) as object,
        contentType: "application/json",
      });
    }
    // Nested fields get every other value, to keep the run short; top-level fields get all.
    const all = badValuesFor(field.schema);
    const values = field.path.length === 1 ? all : all.filter((_, j) => (i + j) % 2 === 0);
    for (const value of values) {
      out.push({
        label: `${name}=${JSON.stringify(value)?.slice(0, 30)}`,
        url: base,
        payload: withField(body, field.path, value) as object,
        contentType: "application/json",
      });
    }
  }
  return out;
}

/** Whether the route takes a text body (the product import's CSV). */
const isText = (op: Operation) => op.body["application/json"]?.type === "string";
