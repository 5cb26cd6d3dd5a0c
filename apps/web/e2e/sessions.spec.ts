import { devices } from "@playwright/test";
import { createStore, expect, signIn, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, scanThroughApi } from "./support/shopping.ts";

test("follows a live visit on the Sessions screen from the door to the receipt while the shopper shops on a phone", async ({
  page,
  browser,
}) => {
  // Two pages, a shopper's whole visit and two accessibility scans: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  // The console, filtered to a new store, is open before the shopper arrives.
  await signIn(page);
  const store = await createStore(page.request);
  const juice = await createProduct(page.request, { price: 24.9, name: "Sessionsjuice" });
  const gate = await page.request.post(`/api/v1/stores/${store.id}/device-keys`, { data: { kind: "exit_gate" } });
  const gateKey = ((await gate.json()) as { key: string }).key;
  await page.goto(`/sessions?store=${store.id}`);
  await expect(page).toHaveTitle("Sessions · Glide");
  await expect(page.getByRole("heading", { name: "Sessions", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Sessions" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  await expect(page.getByText("No sessions match these filters")).toBeVisible();

  // The shopper, on a phone of their own (another browser context, phone sized, touch): signed in, a card on file.
  const phoneContext = await browser.newContext({ ...devices["Pixel 7"] });
  const phone = await phoneContext.newPage();
  const login = await phone.request.post("/api/v1/auth/dev-login");
  expect(login.ok(), await login.text()).toBe(true);
  const tokens = (await login.json()) as { access_token: string; user: { id: string; name: string } };
  const headers = { Authorization: `Bearer ${tokens.access_token}` };
  const card = await phone.request.put("/api/v1/payment-method", { data: { payment_method: "pm_card_visa" }, headers });
  expect(card.ok(), await card.text()).toBe(true);
  const entry = await phone.request.post("/api/v1/sessions/entry", { data: { store_id: store.id }, headers });
  const visit = (await entry.json()) as { session_id: string; session_token: string; store_id: string };
  await phone.goto("/customer/not-a-page");
  await phone.evaluate(
    ({ token, userId, entry }) => {
      localStorage.setItem("glide_access_token", token);
      localStorage.setItem("auth_token", token);
      localStorage.setItem("glide_user_id", userId);
      localStorage.setItem("session_id", entry.session_id);
      localStorage.setItem("session_token", entry.session_token);
      localStorage.setItem("store_id", entry.store_id);
    },
    { token: tokens.access_token, userId: tokens.user.id, entry: visit },
  );
  // The store's door scanner reads the entry code.
  const door = await phone.request.post("/api/v1/sessions/door/scan", {
    data: visit,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(door.ok(), await door.text()).toBe(true);
  await phone.goto("/customer/manual-scan");
  await expect(phone.getByText("Kundvagnen är tom")).toBeVisible();

  // The row appears when the door opens, and its item count follows each scan.
  const row = page.locator(`[data-session-id="${visit.session_id}"]`);
  await expect(row).toContainText("Entered");
  await expect(row).toContainText(tokens.user.name);
  const shopper = { sessionId: visit.session_id, accessToken: tokens.access_token, store };
  // The scanner's reading (tested with a filmed barcode in shopping-camera.spec.ts) is what the phone sends.
  expect((await scanThroughApi(phone, shopper, juice.barcode)).ok()).toBe(true);
  await expect(row.locator('[data-label="items"]')).toContainText("1");
  // Then the shopper's own taps on the phone: one more, and one back.
  await phone.getByRole("button", { name: `Öka antal ${juice.name}` }).tap();
  await expect(phone.getByLabel("2 st", { exact: true })).toBeVisible();
  await expect(row.locator('[data-label="items"]')).toContainText("2");
  await phone.getByRole("button", { name: `Öka antal ${juice.name}` }).tap();
  await expect(row.locator('[data-label="items"]')).toContainText("3");
  await phone.getByRole("button", { name: `Minska antal ${juice.name}` }).tap();
  await expect(row.locator('[data-label="items"]')).toContainText("2");
  await expect(row).toContainText("Shopping");
  await expect(row.locator('[data-label="lines"]')).toContainText("1");
  await expect(row).toContainText("49,80 kr");
  await expectAccessible(page, "the Sessions list");

  // The detail: the scan and the taps on the timeline, each from the phone.
  await row.getByRole("button", { name: tokens.user.name }).click();
  await expect(page).toHaveURL(new RegExp(`session=${visit.session_id}`));
  const detail = page.getByRole("dialog", { name: tokens.user.name });
  const timeline = detail.getByRole("list", { name: "Timeline" });
  const entries = timeline.getByRole("listitem");
  await expect(entries.filter({ hasText: `Added ${juice.name}` })).toHaveCount(1);
  await expect(entries.filter({ hasText: `Added ${juice.name}` })).toContainText("Phone");
  const changes = entries.filter({ hasText: /quantity/i });
  await expect(changes).toHaveCount(3);
  for (const change of await changes.all()) await expect(change).toContainText("Phone");
  await expect(entries.filter({ hasText: "Door opened" })).toContainText("Door");
  await expect(detail.getByRole("list", { name: "Cart" })).toContainText(`2 × ${juice.name}`);
  await expectAccessible(page, "the session detail");

  // To the exit on the phone: no face check here, so the exit QR code; the gate reads it and charges the card.
  await phone.getByRole("link", { name: "Gå till kassan →" }).first().tap();
  await expect(phone.getByRole("img", { name: "QR-kod för utgången" })).toBeVisible();
  await expect(entries.filter({ hasText: "Face check" })).toContainText("Phone");
  const code = await phone.request.get("/api/v1/exit/token", { headers });
  const opened = await phone.request.post("/api/v1/exit/scan", {
    data: { token: ((await code.json()) as { token: string }).token },
    headers: { Authorization: `Device ${gateKey}` },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  const receiptNumber = ((await opened.json()) as { receipt_number: number }).receipt_number;
  await expect(phone.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible();
  await expect(entries.filter({ hasText: "Exit QR code read" })).toContainText("Exit gate");
  await expect(entries.filter({ hasText: `receipt ${receiptNumber}` })).toContainText("System");
  await expect(detail.getByRole("region", { name: `Receipt ${receiptNumber}` })).toContainText(juice.name);
  await expect(detail.getByRole("button", { name: "Refund" })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  await expect(page).not.toHaveURL(/session=/);
  await expect(row).toContainText("Checked out");
  await expect(row).toContainText("Paid");
  await phoneContext.close();
});

test("keeps the view and the filters in the URL, and says so when nothing matches", async ({ page }) => {
  await signIn(page, "/sessions?view=spot-checks");
  await expect(page.getByRole("tab", { name: "Spot checks" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "Sessions" }).click();
  await expect(page).not.toHaveURL(/view=/);
  await page.getByLabel("Status").selectOption({ label: "Abandoned" });
  await expect(page).toHaveURL(/status=abandoned/);
  await page.getByRole("searchbox", { name: "Search sessions" }).fill("ingen-sådan-kund-100%");
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByText("No sessions match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/status=|search=/);
});
