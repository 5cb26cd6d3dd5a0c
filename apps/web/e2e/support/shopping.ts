import type { APIRequestContext, Page } from "@playwright/test";
import { createStore, expect, type TestStore, unique } from "../fixtures.ts";

/** A valid EAN-13 for a fresh product: a Swedish-style prefix, random digits, the check digit. */
export function randomEan13(): string {
  const body = `731${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const sum = [...body].reverse().reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export interface TestProduct {
  id: string;
  name: string;
  barcode: string;
  price: number;
}

/** A product made by the test admin (createStore has signed the request context in). */
export async function createProduct(
  request: APIRequestContext,
  fields: {
    price: number;
    barcode?: string;
    name?: string;
    net_content?: number;
    net_content_unit?: string;
    /** The pant mark on the package ("can" is 2 kr in a Swedish store). */
    pant_code?: string;
  },
): Promise<TestProduct> {
  const { price, net_content, net_content_unit, pant_code } = fields;
  const name = fields.name ?? unique("Ekologisk mjölk");
  const barcode = fields.barcode ?? randomEan13();
  const sku = unique("SKU").replaceAll(" ", "-");
  const created = await request.post("/api/v1/products/", {
    data: { sku, name, price, barcode, category: "Mejeri", net_content, net_content_unit, pant_code },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { id, name, barcode, price: fields.price };
}

export interface Visit {
  store: TestStore;
  sessionId: string;
  accessToken: string;
}

/**
 * A shopper through the door of a new store, as the entry pages leave the
 * phone: dev-login tokens and the visit in localStorage. The page is left on
 * about:blank; the caller opens the shopping page it tests.
 */
export async function enterStore(page: Page): Promise<Visit> {
  const store = await createStore(page.request);
  const login = await page.request.post("/api/v1/auth/dev-login");
  expect(login.ok(), await login.text()).toBe(true);
  const tokens = (await login.json()) as {
    access_token: string;
    refresh_token: string;
    user: { id: string; name: string };
  };
  const headers = { Authorization: `Bearer ${tokens.access_token}` };
  const entryAnswer = await page.request.post("/api/v1/sessions/entry", { data: { store_id: store.id }, headers });
  expect(entryAnswer.ok(), await entryAnswer.text()).toBe(true);
  const entry = (await entryAnswer.json()) as { session_id: string; session_token: string; store_id: string };
  const door = await page.request.post("/api/v1/sessions/door/scan", {
    data: entry,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(door.ok(), await door.text()).toBe(true);

  await page.goto("/customer/not-a-page");
  await page.evaluate(
    ({ tokens, entry }) => {
      localStorage.setItem("glide_access_token", tokens.access_token);
      localStorage.setItem("auth_token", tokens.access_token);
      localStorage.setItem("glide_refresh_token", tokens.refresh_token);
      localStorage.setItem("glide_user_id", tokens.user.id);
      localStorage.setItem("glide_user_name", tokens.user.name);
      localStorage.setItem("session_id", entry.session_id);
      localStorage.setItem("session_token", entry.session_token);
      localStorage.setItem("store_id", entry.store_id);
    },
    { tokens, entry },
  );
  return { store, sessionId: entry.session_id, accessToken: tokens.access_token };
}

/** A scan made elsewhere (another phone of the same shopper, a retry): straight to the API. */
export async function scanThroughApi(page: Page, visit: Visit, barcode: string, scanId?: string) {
  const answer = await page.request.post("/api/v1/cart/scan", {
    data: { session_id: visit.sessionId, barcode, ...(scanId ? { scan_id: scanId } : {}) },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  return answer;
}

/** Dev-login is one shopper for every test: a test that needs "no card on file" removes it first. */
export async function withoutCard(page: Page, visit: Visit) {
  const removed = await page.request.delete("/api/v1/payment-method", {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(removed.status(), await removed.text()).toBe(204);
}
