import { randomUUID } from "node:crypto";
import { gtinCheckDigit } from "@glide/contracts";
import { TEST_PASSWORD } from "./harness.ts";

/**
 * The rows of the authorization matrix: for each route, the answer each
 * caller gets, and the path parameters, query and body the call is made with
 * (from the real rows in `Fixtures`).
 */

/** Who calls, in the order of a row's `expect`. */
export const CALLERS = ["anonymous", "shopper", "device", "storeAdmin", "platformAdmin"] as const;
/** One of the callers. */
export type Caller = (typeof CALLERS)[number];
/** The scrapers' token the app is started with; no caller holds it. */
export const METRICS_TOKEN = "metrics-token-for-the-matrix-1234";

/** The real rows the calls name, made before the matrix runs. */
export type Fixtures = {
  storeA: string;
  storeToDelete: string;
  moduleId: string;
  deviceKeyToDelete: string;
  product: string;
  productToDelete: string;
  barcode: string;
  imageName: string;
  image: Buffer;
  adminEmail: string;
  /** Another shopper's visit to store A: its id and door token. */
  session: { id: string; token: string };
  /** That shopper's visit through the door, with one line in its cart. */
  visit: string;
  cartItem: string;
  refreshToken: () => Promise<string>;
  /** A camera system of store A on an address where nothing listens, and its camera; one of each to delete. */
  system: string;
  camera: string;
  systemToDelete: string;
  cameraToDelete: string;
  snapshot: string;
  // --- issue 12: fixture fields (each helper adds its own lines below) ---
  /** A paid order of store A (no shopper), a dispute and a spot check on it. */
  paidOrder?: string;
  dispute?: string;
  spotCheck?: string;
  /** An audit log entry (the creation of store A); set in the issue 12 block below. */
  auditEntry?: string;
  // --- issue 22 ---
  /** A third shopper's visit inside store A, for staff to let out. */
  visitToLetOut?: string;
  // --- issue 24 ---
  /** A VAT rate period (Norway's food) to replace, and one to delete. */
  vatRate?: string;
  vatRateToDelete?: string;
  /** A campaign of store A (which the store admin does not manage) to replace, and one to delete. */
  campaign?: string;
  campaignToDelete?: string;
  /** A multi-buy offer of store A to replace, and one to delete. */
  offer?: string;
  offerToDelete?: string;
  /** A price group with store A in it and a price of the product, and a group to delete. */
  priceGroup?: string;
  priceGroupToDelete?: string;
};

/** One route's row. */
export type Row = {
  /** The answer for anonymous, shopper, device key, store admin, platform admin: "2xx" or a status. */
  expect: string;
  params?: (f: Fixtures) => Record<string, string>;
  body?: (f: Fixtures) => unknown | Promise<unknown>;
  contentType?: string;
  query?: string;
  /** The call ends the caller's sign-in; the callers sign in again after it. */
  signsOut?: boolean;
};

let sku = 0;
const everyone2xx = "2xx 2xx 2xx 2xx 2xx";
export const adminsOnly = "401 401 401 2xx 2xx";
export const platformOnly = "401 401 401 403 2xx";
export const storeA = (f: Fixtures) => ({ id: f.storeA });
/** Every route the app serves, by method and path. */
export const MATRIX: Record<string, Row> = {
  "GET /api/health": { expect: everyone2xx },
  "GET /api/ready": { expect: everyone2xx },
  "GET /api/openapi.json": { expect: everyone2xx },
  "GET /api/docs": { expect: everyone2xx },
  "GET /api/docs/json": { expect: everyone2xx },
  "GET /api/docs/yaml": { expect: everyone2xx },
  "GET /api/docs/static/*": { expect: everyone2xx, params: () => ({ "*": "swagger-ui.css" }) },
  "GET /api/docs/static/index.html": { expect: "302 302 302 302 302" },
  "GET /api/docs/static/swagger-initializer.js": { expect: everyone2xx },
  "GET /index.html": { expect: everyone2xx },
  // Only a scraper with METRICS_TOKEN, which none of the callers holds.
  "GET /metrics": { expect: "401 401 401 401 401" },

  "POST /api/v1/admin/login": { expect: everyone2xx, body: (f) => ({ email: f.adminEmail, password: TEST_PASSWORD }) },
  "POST /api/v1/admin/logout": { expect: "204 204 204 204 204", signsOut: true },
  // Whether anyone is signed in: "nobody" is an answer (204), not a refusal.
  "GET /api/v1/admin/me": { expect: "204 204 204 200 200" },
  "GET /api/v1/admin/dashboard": { expect: adminsOnly },

  "GET /api/v1/stores": { expect: adminsOnly },
  "POST /api/v1/stores": { expect: platformOnly, body: () => ({ name: `Matrisbutik ${++sku}` }) },
  "PUT /api/v1/stores/:id": { expect: platformOnly, params: storeA, body: () => ({ name: "Butik A" }) },
  "DELETE /api/v1/stores/:id": { expect: platformOnly, params: (f) => ({ id: f.storeToDelete }) },
  "GET /api/v1/stores/:id/modules": { expect: platformOnly, params: storeA },
  "POST /api/v1/stores/:id/modules/:moduleId": {
    expect: platformOnly,
    params: (f) => ({ id: f.storeA, moduleId: f.moduleId }),
    body: () => ({ enabled: true }),
  },
  "GET /api/v1/stores/:id/device-keys": { expect: platformOnly, params: storeA },
  "POST /api/v1/stores/:id/device-keys": {
    expect: platformOnly,
    params: storeA,
    body: () => ({ kind: "door_scanner" }),
  },
  "DELETE /api/v1/stores/:id/device-keys/:keyId": {
    expect: platformOnly,
    params: (f) => ({ id: f.storeA, keyId: f.deviceKeyToDelete }),
  },

  "GET /api/v1/settings": { expect: adminsOnly },
  "GET /api/v1/settings/:category/:key": { expect: adminsOnly, params: () => ({ category: "store", key: "types" }) },
  "PUT /api/v1/settings/:category/:key": {
    expect: platformOnly,
    params: () => ({ category: "ai", key: "model_name" }),
    body: () => ({ value: "yolov8n" }),
  },
  "GET /api/v1/settings/camera": { expect: adminsOnly },

  // Store A's systems and cameras are not the store admin's. The device behind them does not answer: 502.
  "GET /api/v1/cameras/systems": { expect: adminsOnly },
  "POST /api/v1/cameras/systems": {
    expect: platformOnly,
    body: (f) => ({ name: "Matris-NVR", host: "127.0.0.1", port: 1, store_id: f.storeA }),
  },
  "PUT /api/v1/cameras/systems/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.system }),
    body: () => ({ name: "N" }),
  },
  "DELETE /api/v1/cameras/systems/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.systemToDelete }) },
  "POST /api/v1/cameras/systems/:id/test": { expect: platformOnly, params: (f) => ({ id: f.system }) },
  // Typed settings are tested under store A's rules: the store and the system must be the caller's.
  "POST /api/v1/cameras/systems/test": {
    expect: platformOnly,
    body: (f) => ({ connection_type: "onvif", host: "127.0.0.1", port: 1, store_id: f.storeA, system_id: f.system }),
  },
  "GET /api/v1/cameras/cameras": { expect: adminsOnly },
  "POST /api/v1/cameras/cameras": {
    expect: platformOnly,
    body: (f) => ({ name: "Matris-kamera", camera_system_id: f.system }),
  },
  "PUT /api/v1/cameras/cameras/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.camera }),
    body: () => ({ name: "K" }),
  },
  "DELETE /api/v1/cameras/cameras/:id": { expect: "401 401 401 403 204", params: (f) => ({ id: f.cameraToDelete }) },
  "GET /api/v1/cameras/cameras/:id/history": { expect: platformOnly, params: (f) => ({ id: f.camera }) },
  "GET /api/v1/cameras/cameras/:id/stream": { expect: "401 401 401 403 502", params: (f) => ({ id: f.camera }) },
  "GET /api/v1/cameras/cameras/:id/snapshot": { expect: "401 401 401 403 502", params: (f) => ({ id: f.camera }) },
  "GET /api/v1/cameras/snapshots/:id": { expect: platformOnly, params: (f) => ({ id: f.snapshot }) },
  "GET /api/v1/cameras/cameras/:id/ptz/presets": { expect: "401 401 401 403 502", params: (f) => ({ id: f.camera }) },
  "POST /api/v1/cameras/cameras/:id/ptz": {
    expect: "401 401 401 403 502",
    params: (f) => ({ id: f.camera }),
    body: () => ({ action: "stop" }),
  },
  "GET /api/v1/settings/effective": { expect: adminsOnly },
  "GET /api/v1/settings/history": { expect: adminsOnly },
  // Store A is not the store admin's.
  "GET /api/v1/settings/stores/:store_id": { expect: platformOnly, params: (f) => ({ store_id: f.storeA }) },
  "PUT /api/v1/settings/stores/:store_id": {
    expect: platformOnly,
    params: (f) => ({ store_id: f.storeA }),
    body: () => ({ settings: {} }),
  },

  "GET /api/v1/products": { expect: adminsOnly },
  "GET /api/v1/products/categories": { expect: adminsOnly },
  "GET /api/v1/products/export": { expect: adminsOnly },
  "GET /api/v1/products/lookup/:code": { expect: adminsOnly, params: (f) => ({ code: f.barcode }) },
  "GET /api/v1/products/:id": { expect: adminsOnly, params: (f) => ({ id: f.product }) },
  "POST /api/v1/products": {
    expect: platformOnly,
    body: () => ({ sku: `MATRIX-${++sku}`, name: "Matrisvara", price: 10 }),
  },
  "PUT /api/v1/products/:id": { expect: platformOnly, params: (f) => ({ id: f.product }), body: () => ({ price: 12 }) },
  "DELETE /api/v1/products/:id": { expect: platformOnly, params: (f) => ({ id: f.productToDelete }) },
  "POST /api/v1/products/import": {
    expect: platformOnly,
    query: "?dry_run=true",
    contentType: "text/csv",
    body: () => "sku,name,price\nMATRIX-CSV,Importvara,5\n",
  },
  "POST /api/v1/products/images": { expect: platformOnly, contentType: "image/png", body: (f) => f.image },
  // Product photos are public: the shopper app shows them.
  "GET /api/v1/products/images/*": { expect: everyone2xx, params: (f) => ({ "*": f.imageName }) },

  "GET /api/v1/public/config": { expect: everyone2xx },
  "GET /api/v1/public/stores/:store_id": { expect: everyone2xx, params: (f) => ({ store_id: f.storeA }) },

  // BankID is not configured here: sign-in answers 503, an unknown order 404, whoever asks.
  "POST /api/v1/auth/init": { expect: "503 503 503 503 503", body: () => ({}) },
  "GET /api/v1/auth/qr/:order_ref": { expect: "404 404 404 404 404", params: () => ({ order_ref: randomUUID() }) },
  "POST /api/v1/auth/collect": { expect: "404 404 404 404 404", body: () => ({ order_ref: randomUUID() }) },
  "POST /api/v1/auth/cancel": { expect: "404 404 404 404 404", body: () => ({ order_ref: randomUUID() }) },
  // The refresh token in the body is the credential, so every caller gets the same answer.
  "POST /api/v1/auth/refresh": { expect: everyone2xx, body: async (f) => ({ refresh_token: await f.refreshToken() }) },
  "POST /api/v1/auth/logout": {
    expect: "204 204 204 204 204",
    body: async (f) => ({ refresh_token: await f.refreshToken() }),
  },
  "POST /api/v1/auth/dev-login": { expect: everyone2xx },

  "POST /api/v1/sessions/entry": { expect: "401 2xx 401 401 401", body: (f) => ({ store_id: f.storeA }) },
  // Another shopper's visit to store A: the shopper is not its owner, the device key is store B's.
  "POST /api/v1/sessions/door/scan": {
    expect: "401 403 403 401 401",
    body: (f) => ({ session_id: f.session.id, session_token: f.session.token, store_id: f.storeA }),
  },
  "DELETE /api/v1/sessions/entry/:session_id": {
    expect: "401 403 401 401 401",
    params: (f) => ({ session_id: f.session.id }),
  },
  "POST /api/v1/cart/scan": {
    expect: "401 403 401 401 401",
    body: (f) => ({ session_id: f.visit, barcode: f.barcode }),
  },
  "GET /api/v1/cart/:session_id": { expect: "401 403 401 401 401", params: (f) => ({ session_id: f.visit }) },
  "PUT /api/v1/cart/item/:item_id": {
    expect: "401 403 401 401 401",
    params: (f) => ({ item_id: f.cartItem }),
    body: () => ({ quantity: 2 }),
  },
  "DELETE /api/v1/cart/item/:item_id": { expect: "401 403 401 401 401", params: (f) => ({ item_id: f.cartItem }) },
  // A voucher that could be taken, into someone else's visit.
  "POST /api/v1/cart/vouchers": {
    expect: "401 403 401 401 401",
    body: (f) => ({ session_id: f.visit, barcode: `980123450024${gtinCheckDigit("980123450024")}` }),
  },
  "DELETE /api/v1/cart/:session_id/vouchers/:code": {
    expect: "401 403 401 401 401",
    params: (f) => ({ session_id: f.visit, code: "9801234500240" }),
  },
  // Only a pant_machine key reports a printed voucher; the device caller is a door scanner.
  "POST /api/v1/pant-vouchers": {
    expect: "401 401 401 401 401",
    body: () => ({ barcode: `980123460024${gtinCheckDigit("980123460024")}` }),
  },
  // Only a camera_worker key; the device caller is a door scanner.
  "POST /api/v1/cart/worker": {
    expect: "401 401 401 401 401",
    body: (f) => ({ session_id: f.visit, product_id: f.product, action: "add", event_id: randomUUID() }),
  },
  // Someone else's user_id: the shopper may pay only for themselves.
  "POST /api/v1/checkout": { expect: "401 403 401 401 401", body: () => ({ user_id: randomUUID() }) },
  "GET /api/v1/receipts": { expect: "401 2xx 401 401 401" },
  "GET /api/v1/receipts/:id": { expect: "401 404 401 401 401", params: () => ({ id: randomUUID() }) },
  "GET /api/v1/payment-method": { expect: "401 2xx 401 401 401" },
  // The matrix's server has no payment provider: the shopper is told so (503), nobody else gets that far.
  "PUT /api/v1/payment-method": { expect: "401 503 401 401 401", body: () => ({ payment_method: "pm_card_visa" }) },
  "DELETE /api/v1/payment-method": { expect: "401 503 401 401 401" },
  // The shopper caller has no visit of their own.
  "GET /api/v1/exit/token": { expect: "401 404 401 401 401" },
  "GET /api/v1/exit/status": { expect: "401 404 401 401 401" },
  // Only an exit_gate key; the device caller is a door scanner.
  "POST /api/v1/exit/scan": { expect: "401 401 401 401 401", body: () => ({ token: "GLIDEX1.a.b" }) },
  // The shopper's own profile: no visit needed.
  "GET /api/v1/profile": { expect: "401 2xx 401 401 401" },
  "PUT /api/v1/profile/email": { expect: "401 2xx 401 401 401", body: () => ({ email: "matris@example.se" }) },
  "GET /api/v1/profile/membership": { expect: "401 2xx 401 401 401" },
  "PUT /api/v1/profile/membership": { expect: "401 2xx 401 401 401", body: () => ({ member: false }) },
  "GET /api/v1/face/consent": { expect: "401 2xx 401 401 401" },
  "PUT /api/v1/face/consent": { expect: "401 2xx 401 401 401", body: () => ({ consent: false }) },
  // Someone else's user_id.
  "POST /api/v1/face/verify": { expect: "401 403 401 401 401", body: () => ({ user_id: randomUUID() }) },
  // The cart's WebSocket: a plain GET is no upgrade.
  "GET /ws/cart": { expect: "404 404 404 404 404", query: `?session_id=${randomUUID()}` },
  "GET /api/v1/sessions/:session_id/door-status": {
    expect: "401 403 401 401 401",
    params: (f) => ({ session_id: f.session.id }),
  },
  // --- issue 12: sessions rows ---
  "GET /api/v1/admin/sessions": { expect: adminsOnly },
  // Store A's visit: the store admin manages another store.
  "GET /api/v1/admin/sessions/:id": { expect: "401 401 401 403 2xx", params: (f) => ({ id: f.visit }) },
  // An event stream only for a client that asks for one (Accept: text/event-stream); the stream itself is
  // tested over real HTTP in admin-sessions.timeline.test.ts, including what a store admin does not get.
  "GET /api/v1/admin/sessions/live": { expect: "401 401 401 406 406" },
  // The shopper's own visits left unpaid (none here).
  "GET /api/v1/visits/unpaid": { expect: "401 2xx 401 401 401" },
  // --- issue 21: a visit left unpaid, settled by staff. Store A's visit is still in the store (409). ---
  "POST /api/v1/admin/sessions/:id/charge": { expect: "401 401 401 403 409", params: (f) => ({ id: f.visit }) },
  "POST /api/v1/admin/sessions/:id/write-off": {
    expect: "401 401 401 403 409",
    params: (f) => ({ id: f.visit }),
    body: () => ({ reason: "Matris" }),
  },
  // --- issue 22: the way back to a visit, and staff letting out a shopper who cannot pay ---
  // The shopper caller has no visit inside a store: null.
  "GET /api/v1/visits/open": { expect: "401 2xx 401 401 401" },
  // Store A's visit: the store admin manages another store; the platform admin lets it out.
  "POST /api/v1/admin/sessions/:id/let-out": {
    expect: "401 401 401 403 2xx",
    params: (f) => ({ id: f.visitToLetOut! }),
  },
  // --- issue 12: refunds, disputes and spot checks rows ---
  "GET /api/v1/admin/orders/:id/refunds": { expect: platformOnly, params: (f) => ({ id: f.paidOrder! }) },
  // Store A is not the store admin's; the matrix's server has no payment provider (503).
  "POST /api/v1/admin/orders/:id/refunds": {
    expect: "401 401 401 403 503",
    params: (f) => ({ id: f.paidOrder! }),
    body: () => ({ idempotency_key: randomUUID(), reason: "Matris", whole: true }),
  },
  // Not the shopper's receipt.
  "POST /api/v1/receipts/:id/dispute": {
    expect: "401 403 401 401 401",
    params: (f) => ({ id: f.paidOrder! }),
    body: () => ({ message: "Fel" }),
  },
  "GET /api/v1/admin/disputes": { expect: adminsOnly },
  "PUT /api/v1/admin/disputes/:id": {
    expect: platformOnly,
    params: (f) => ({ id: f.dispute! }),
    body: () => ({ state: "rejected", resolution: "Matris" }),
  },
  "GET /api/v1/admin/spot-checks": { expect: adminsOnly },
  "PUT /api/v1/admin/spot-checks/:id/outcome": {
    expect: platformOnly,
    params: (f) => ({ id: f.spotCheck! }),
    body: () => ({ idempotency_key: randomUUID(), outcome: "ok" }),
  },
  // --- issue 12: analytics rows ---
  // Without store_id a store admin sees their own stores (another store's id is 403: analytics.access.test.ts).
  "GET /api/v1/admin/analytics/summary": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  "GET /api/v1/admin/analytics/revenue": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  "GET /api/v1/admin/analytics/sessions-by-hour": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  "GET /api/v1/admin/analytics/top-products": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  "GET /api/v1/admin/analytics/top-categories": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  "GET /api/v1/admin/analytics/refunds": { expect: adminsOnly, query: "?from=2025-01-01&to=2025-01-31" },
  // --- issue 12: audit rows ---
  "GET /api/v1/admin/audit": { expect: platformOnly },
  "GET /api/v1/admin/audit/:id": { expect: platformOnly, params: (f) => ({ id: String(f.auditEntry) }) },
};
