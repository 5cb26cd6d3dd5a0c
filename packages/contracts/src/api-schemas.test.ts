import { describe, expect, it } from "vitest";
import { adminMeSchema, loginSchema } from "./admin-auth.ts";
import {
  cartItemParams,
  cartQuantitySchema,
  cartScanResponseSchema,
  cartScanSchema,
  cartSchema,
  cartSessionParams,
  cartWorkerSchema,
} from "./cart.ts";
import { dashboardStatsSchema } from "./dashboard.ts";
import { errorSchema } from "./errors.ts";
import {
  deviceKeyCreatedSchema,
  deviceKeyCreateSchema,
  doorScanResponseSchema,
  doorScanSchema,
  doorStatusSchema,
  entryRequestSchema,
  entryResponseSchema,
  sessionIdParams,
} from "./sessions.ts";
import { isSettingCategory } from "./settings.ts";
import { settingParams, settingSchema } from "./settings-api.ts";
import {
  authCollectSchema,
  authInitResponseSchema,
  authInitSchema,
  collectResponseSchema,
  orderRefParams,
  publicConfigSchema,
  publicStoreSchema,
  qrResponseSchema,
  refreshSchema,
  tokensSchema,
} from "./shopper-api.ts";
import { keeps, message, type Schema } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

describe("answers keep every field", () => {
  const product = { id: "p", name: "Sylt", image_url: null, comparison_price: { price: 22.22, unit: "kg" } };
  const item = {
    id: "i",
    quantity: 2,
    unit_price: 10,
    total_price: 20,
    ordinary_unit_price: 12.9,
    member_unit_price: 9.5,
    weight_grams: null,
    pant: { unit: 2, total: 4 },
    product,
  };

  it.each<[string, Schema, unknown]>([
    ["admin", adminMeSchema, { id: "a", email: "a@x.se", role: "store_admin", store_ids: [uuid] }],
    [
      "cart",
      cartSchema,
      {
        session_id: uuid,
        items: [item],
        discounts: [{ offer_id: uuid, label: "3 för 2", times: 1, amount: 10 }],
        vouchers: [{ code: "9801234500240", amount: 24 }],
        total: 20,
        to_pay: 0,
        member_total: 19,
      },
    ],
    [
      "scan answer",
      cartScanResponseSchema,
      {
        product,
        item: { ...item, weight_grams: 450, pant: null },
        discounts: [{ offer_id: null, label: "2 för 35 kr", times: 2, amount: 4.8 }],
        total: 35.2,
        member_total: null,
      },
    ],
    [
      "dashboard",
      dashboardStatsSchema,
      {
        total_stores: 2,
        active_stores: 1,
        inactive_stores: 1,
        total_products: 3,
        total_cameras: 3,
        cameras_offline: 1,
        total_users: 4,
        mrr: 99.5,
        total_transactions: 5,
        total_revenue: 10.25,
        active_modules: { cameras: 1 },
      },
    ],
    ["error", errorSchema, { detail: "d", code: "validation", errors: [{ path: "name", message: "m" }] }],
    ["entry", entryResponseSchema, { session_id: uuid, session_token: "t", store_id: uuid, expires_at: "2026" }],
    ["door scan", doorScanResponseSchema, { door_opened: true, session_id: uuid }],
    ["door status", doorStatusSchema, { door_opened: false }],
    [
      "device key",
      deviceKeyCreatedSchema,
      { id: "k", store_id: uuid, kind: "door_scanner", label: null, created_at: "c", last_used_at: null, key: "s" },
    ],
    [
      "setting",
      settingSchema,
      {
        id: "s",
        category: "camera",
        key: "fps",
        value: 30,
        description: null,
        is_editable: true,
        updated_at: "2026-11-23T10:00:00.000Z",
      },
    ],
    ["auth init", authInitResponseSchema, { order_ref: uuid, auto_start_token: "t" }],
    ["qr", qrResponseSchema, { qr_code_data: "bankid.x" }],
    ["tokens", tokensSchema, { access_token: "a", refresh_token: "r", expires_in: 900, user: { id: "u", name: "N" } }],
    [
      "collect",
      collectResponseSchema,
      {
        status: "complete",
        hint_code: null,
        message: null,
        access_token: "a",
        refresh_token: "r",
        expires_in: 900,
        user: { id: "u", name: "N" },
      },
    ],
    [
      "public store",
      publicStoreSchema,
      { id: uuid, name: "B", address: null, postal_code: "90325", city: "Umeå", is_active: true },
    ],
    [
      "public config",
      publicConfigSchema,
      { dev_tools: false, bankid_app_url: "https://app.bankid.com/", card_page_url: null },
    ],
  ])("%s", (_name, schema, value) => keeps(schema, value));

  it("take only the states and kinds they name", () => {
    for (const status of ["pending", "failed"]) {
      keeps(collectResponseSchema, { status, hint_code: "userSign", message: "Skriv in din säkerhetskod" });
    }
    expect(collectResponseSchema.safeParse({ status: "done", hint_code: null, message: null }).success).toBe(false);
    for (const category of ["camera", "product", "store", "ai", "ui"]) expect(isSettingCategory(category)).toBe(true);
    // An unknown category is the server's 404, not a malformed path.
    for (const category of ["x", "Camera", "cameras", "toString"]) expect(isSettingCategory(category)).toBe(false);
    expect(adminMeSchema.safeParse({ id: "a", email: "e", role: "root", store_ids: [] }).success).toBe(false);
    keeps(adminMeSchema, { id: "a", email: "e", role: "platform_admin", store_ids: [] });
  });
});

describe("requests", () => {
  it("sign-in: an e-mail address and a password, trimmed and limited", () => {
    expect(loginSchema.parse({ email: " a@x.se ", password: " p " })).toEqual({ email: "a@x.se", password: " p " });
    expect(message(loginSchema, { email: " ", password: "p" })).toBe("Email is required");
    expect(message(loginSchema, { email: "a", password: "" })).toBe("Password is required");
    expect(loginSchema.safeParse({ email: "a".repeat(201), password: "p" }).success).toBe(false);
    expect(loginSchema.safeParse({ email: "a", password: "p".repeat(201) }).success).toBe(false);
    keeps(loginSchema, { email: "a".repeat(200), password: "p".repeat(200) });
  });

  it("a cart scan: a session, a barcode and maybe a scan id", () => {
    keeps(cartScanSchema, { session_id: uuid, barcode: "96385074", scan_id: uuid });
    expect(cartScanSchema.parse({ session_id: uuid, barcode: " 96385074 " }).barcode).toBe("96385074");
    expect(message(cartScanSchema, { session_id: "x", barcode: "1" })).toBe("session_id must be a UUID");
    expect(message(cartScanSchema, { session_id: uuid, barcode: " " })).toBe("barcode is required");
    expect(message(cartScanSchema, { session_id: uuid, barcode: "1".repeat(65) })).toBe(
      "barcode must be at most 64 characters",
    );
    keeps(cartScanSchema, { session_id: uuid, barcode: "1".repeat(64) });
    expect(message(cartScanSchema, { session_id: uuid, barcode: "1", scan_id: "x" })).toBe("scan_id must be a UUID");
  });

  it("cart paths and quantities", () => {
    keeps(cartItemParams, { item_id: uuid });
    expect(message(cartItemParams, { item_id: "1" })).toBe("item_id must be a UUID");
    keeps(cartSessionParams, { session_id: uuid });
    expect(message(cartSessionParams, { session_id: "1" })).toBe("session_id must be a UUID");
    keeps(cartQuantitySchema, { quantity: 0 });
    keeps(cartQuantitySchema, { quantity: 999 });
    expect(message(cartQuantitySchema, { quantity: 1.5 })).toBe("quantity must be a whole number");
    expect(message(cartQuantitySchema, { quantity: -1 })).toBe("quantity cannot be negative");
    expect(cartQuantitySchema.safeParse({ quantity: 1000 }).success).toBe(false);
  });

  it("the recognition worker adds or removes a product", () => {
    for (const action of ["add", "remove"]) {
      keeps(cartWorkerSchema, { session_id: uuid, action, product_id: uuid, event_id: uuid });
    }
    const add = { session_id: uuid, action: "add", product_id: uuid };
    expect(cartWorkerSchema.safeParse({ ...add, action: "move" }).success).toBe(false);
    expect(message(cartWorkerSchema, { ...add, session_id: "1" })).toBe("session_id must be a UUID");
    expect(message(cartWorkerSchema, { ...add, product_id: "1" })).toBe("product_id must be a UUID");
    expect(message(cartWorkerSchema, { ...add, event_id: "1" })).toBe("event_id must be a UUID");
  });

  it("entry, the door and device keys", () => {
    keeps(entryRequestSchema, { store_id: uuid });
    expect(message(entryRequestSchema, { store_id: "demo!" })).toBe("store_id must be a UUID");
    const scan = { session_id: uuid, session_token: "t".repeat(200), store_id: uuid };
    keeps(doorScanSchema, scan);
    expect(message(doorScanSchema, { ...scan, session_id: "1" })).toBe("session_id must be a UUID");
    expect(message(doorScanSchema, { ...scan, store_id: "1" })).toBe("store_id must be a UUID");
    expect(doorScanSchema.safeParse({ ...scan, session_token: "" }).success).toBe(false);
    expect(doorScanSchema.safeParse({ ...scan, session_token: "t".repeat(201) }).success).toBe(false);
    keeps(sessionIdParams, { session_id: uuid });
    expect(message(sessionIdParams, { session_id: "1" })).toBe("session_id must be a UUID");
    for (const kind of ["door_scanner", "exit_gate", "camera_worker", "pant_machine"])
      keeps(deviceKeyCreateSchema, { kind });
    expect(deviceKeyCreateSchema.parse({ kind: "exit_gate", label: " Dörr 1 " }).label).toBe("Dörr 1");
    expect(deviceKeyCreateSchema.safeParse({ kind: "printer" }).success).toBe(false);
    expect(deviceKeyCreateSchema.safeParse({ kind: "exit_gate", label: "l".repeat(101) }).success).toBe(false);
  });

  it("BankID sign-in: a return path under /customer only", () => {
    keeps(authInitSchema, {
      user_visible_data: "u".repeat(1500),
      return_path: "/customer/store?id=1&x=%20",
      autostart: true,
    });
    keeps(authInitSchema, { return_path: "/customer" });
    expect(authInitSchema.safeParse({ user_visible_data: "u".repeat(1501) }).success).toBe(false);
    for (const return_path of [
      "/admin",
      "https://evil.example/customer",
      "/customerx",
      "/customer/<x>",
      "x/customer",
    ]) {
      expect(message(authInitSchema, { return_path })).toBe("return_path must be a path under /customer");
    }
    expect(authInitSchema.safeParse({ return_path: `/customer/${"a".repeat(400)}` }).success).toBe(false);
    keeps(orderRefParams, { order_ref: uuid });
    expect(message(orderRefParams, { order_ref: "1" })).toBe("order_ref must be a UUID");
    keeps(authCollectSchema, { order_ref: uuid });
    expect(message(authCollectSchema, { order_ref: "1" })).toBe("order_ref must be a UUID");
    keeps(refreshSchema, { refresh_token: "r".repeat(200) });
    expect(refreshSchema.safeParse({ refresh_token: "" }).success).toBe(false);
    expect(refreshSchema.safeParse({ refresh_token: "r".repeat(201) }).success).toBe(false);
  });

  it("setting keys are 1 to 100 characters", () => {
    keeps(settingParams, { category: "ui", key: "k".repeat(100) });
    expect(settingParams.safeParse({ category: "ui", key: "" }).success).toBe(false);
    expect(settingParams.safeParse({ category: "ui", key: "k".repeat(101) }).success).toBe(false);
  });
});
