import type { Page } from "@playwright/test";
import { expect, type TestStore } from "../fixtures.ts";

export interface Shopper {
  name: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  headers: { Authorization: string };
}

/** The dev-login shopper with the simulator's card on file: signed in through the API, as their phone would be. */
export async function signInShopper(page: Page): Promise<Shopper> {
  const login = await page.request.post("/api/v1/auth/dev-login");
  expect(login.ok(), await login.text()).toBe(true);
  const tokens = (await login.json()) as {
    access_token: string;
    refresh_token: string;
    user: { id: string; name: string };
  };
  const headers = { Authorization: `Bearer ${tokens.access_token}` };
  const card = await page.request.put("/api/v1/payment-method", { data: { payment_method: "pm_card_visa" }, headers });
  expect(card.ok(), await card.text()).toBe(true);
  return {
    name: tokens.user.name,
    userId: tokens.user.id,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    headers,
  };
}

/** A new exit gate's device key for the store; the test admin (createStore) must have made the store. */
export async function exitGateKey(page: Page, store: TestStore): Promise<string> {
  const gate = await page.request.post(`/api/v1/stores/${store.id}/device-keys`, { data: { kind: "exit_gate" } });
  expect(gate.ok(), await gate.text()).toBe(true);
  return ((await gate.json()) as { key: string }).key;
}

export interface PaidVisit {
  sessionId: string;
  receiptId: string;
  receiptNumber: number;
  /** What the phone is told at the exit: only when staff check the visit. */
  notice?: string;
}

/**
 * A sale made the way a real one is: the shopper asks to enter, the store's
 * door scanner reads the entry code, the phone scans each barcode, and the
 * exit gate reads the exit code, which charges the card.
 */
export async function paidVisit(
  page: Page,
  who: Shopper,
  store: TestStore,
  gateKey: string,
  barcodes: string[],
): Promise<PaidVisit> {
  const headers = who.headers;
  const visit = await shopInStore(page, who, store, barcodes);
  const code = await page.request.get("/api/v1/exit/token", { headers });
  expect(code.ok(), await code.text()).toBe(true);
  const scanned = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(scanned.ok(), await scanned.text()).toBe(true);
  const status = await page.request.get("/api/v1/exit/status", { headers });
  const paid = (await status.json()) as { state: string; receipt: { id: string; number: number }; notice?: string };
  expect(paid.state).toBe("paid");
  return {
    sessionId: visit.session_id,
    receiptId: paid.receipt.id,
    receiptNumber: paid.receipt.number,
    ...(paid.notice ? { notice: paid.notice } : {}),
  };
}

/** Into the store through its door scanner, then each barcode scanned from the phone; the visit is left open. */
export async function shopInStore(page: Page, who: Shopper, store: TestStore, barcodes: string[]) {
  const headers = who.headers;
  const entry = await page.request.post("/api/v1/sessions/entry", { data: { store_id: store.id }, headers });
  expect(entry.ok(), await entry.text()).toBe(true);
  const visit = (await entry.json()) as { session_id: string; session_token: string; store_id: string };
  const door = await page.request.post("/api/v1/sessions/door/scan", {
    data: visit,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(door.ok(), await door.text()).toBe(true);
  for (const barcode of barcodes) {
    const scan = await page.request.post("/api/v1/cart/scan", {
      data: { session_id: visit.session_id, barcode },
      headers,
    });
    expect(scan.ok(), await scan.text()).toBe(true);
  }
  return visit;
}

/** One sale by the dev-login shopper through a new exit gate of the store. Returns the receipt's number. */
export async function sellThroughExit(page: Page, store: TestStore, barcodes: string[]): Promise<number> {
  const who = await signInShopper(page);
  const visit = await paidVisit(page, who, store, await exitGateKey(page, store), barcodes);
  return visit.receiptNumber;
}
