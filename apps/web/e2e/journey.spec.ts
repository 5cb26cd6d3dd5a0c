import type { Page } from "@playwright/test";
import { createStore, isPhone } from "./fixtures.ts";
import { SIMULATOR_CONTROL_URL } from "./playwright.config.ts";
import { expect, test } from "./support/fake-camera.ts";

/**
 * The whole visit on a phone, every part real: the store's link, BankID (the
 * simulator plays the app), the door scanner, the camera reading a product,
 * the exit QR code at the gate, one charge, the receipt.
 */
const CODE = "7310865004703";
test.use({ camera: { code: CODE } });

const bearer = async (page: Page) => ({
  Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("glide_access_token"))}`,
});

test("a shopper's whole visit: in with BankID, scan, out through the gate, charged once, receipt", async ({ page }) => {
  test.skip(!isPhone(page), "the shopper's journey is made on a phone");
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
  const store = await createStore(page.request);
  const product = await page.request.post("/api/v1/products/", {
    data: { sku: "E2E-CAMERA-COFFEE", name: "Kamerakaffe", price: 21.5, barcode: CODE, category: "Kaffe" },
  });
  expect([201, 409]).toContain(product.status());
  const gate = await page.request.post(`/api/v1/stores/${store.id}/device-keys`, { data: { kind: "exit_gate" } });
  const gateKey = ((await gate.json()) as { key: string }).key;

  // The store's link and BankID on the same phone.
  await page.goto(`/customer?store_id=${store.id}`);
  const started = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/init") && r.request().method() === "POST");
  await page.getByRole("link", { name: "Test Demo (Hoppa över QR)" }).click();
  const order = (await (await started).json()) as { order_ref: string };
  const approved = await page.request.post(`${SIMULATOR_CONTROL_URL}/api/orders/${order.order_ref}/approve`, {
    data: { personalNumber: "198112189876" },
  });
  expect(approved.ok()).toBe(true);
  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });

  // A card on file, as the card page would save it.
  const card = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: await bearer(page),
  });
  expect(card.ok(), await card.text()).toBe(true);

  // The door scanner reads the entry code.
  const entry = await page.evaluate(() => ({
    session_id: localStorage.getItem("session_id"),
    session_token: localStorage.getItem("session_token"),
    store_id: localStorage.getItem("store_id"),
  }));
  const door = await page.request.post("/api/v1/sessions/door/scan", {
    data: entry,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(door.ok(), await door.text()).toBe(true);
  await expect(page).toHaveURL(/\/customer\/shop$/, { timeout: 10_000 });

  // The camera reads the product.
  await page.getByRole("button", { name: "Scanna Produkt" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Kamerakaffe" })).toContainText("1 st × 21,50 kr", {
    timeout: 15_000,
  });

  // Out through the gate.
  await page.getByRole("link", { name: "Gå till kassan →" }).click();
  await expect(page.getByRole("img", { name: "QR-kod för utgången" })).toBeVisible();
  const code = await page.request.get("/api/v1/exit/token", { headers: await bearer(page) });
  const opened = await page.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  expect(await opened.json()).toMatchObject({ gate_opened: true, status: "paid", receipt_number: 1 });

  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  const receipt = page.getByRole("region", { name: "Kvitto" });
  await expect(receipt).toContainText("1 x Kamerakaffe");
  await expect(receipt).toContainText("Kvitto nr 1");
  await expect(receipt).toContainText(store.name);
  await expect(page).toHaveURL(/\/customer$/, { timeout: 8_000 });
});
