import type { Page } from "@playwright/test";
import { expect, type TestStore } from "../fixtures.ts";

/**
 * A sale made the way a real one is: the dev-login shopper with the
 * simulator's card on file asks to enter, the store's door scanner reads the
 * entry code, the phone scans each barcode, and the exit gate reads the exit
 * code, which charges the card. The test admin (createStore) must have made
 * the store. Returns the receipt's number.
 */
export async function sellThroughExit(page: Page, store: TestStore, barcodes: string[]): Promise<number> {
  const login = await page.request.post("/api/v1/auth/dev-login");
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const card = await page.request.put("/api/v1/payment-method", { data: { payment_method: "pm_card_visa" }, headers });
  expect(card.ok(), await card.text()).toBe(true);

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

  const gate = await page.request.post(`/api/v1/stores/${store.id}/device-keys`, { data: { kind: "exit_gate" } });
  expect(gate.ok(), await gate.text()).toBe(true);
  const code = await page.request.get("/api/v1/exit/token", { headers });
  expect(code.ok(), await code.text()).toBe(true);
  const scanned = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${((await gate.json()) as { key: string }).key}` },
  });
  expect(scanned.ok(), await scanned.text()).toBe(true);
  const status = await page.request.get("/api/v1/exit/status", { headers });
  const paid = (await status.json()) as { state: string; receipt: { number: number } };
  expect(paid.state).toBe("paid");
  return paid.receipt.number;
}
