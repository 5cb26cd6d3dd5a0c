import { createStore, expect, isPhone, openNav, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey, paidVisit, signInShopper } from "./support/sales.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

test("the shopper's pages pass the accessibility checks in both themes", async ({ page }) => {
  // On a phone the login page opens the BankID app; the page stays where it is.
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
  const store = await createStore(page.request);
  for (const theme of ["dark", "light"] as const) {
    await page.goto(`/customer?store_id=${store.id}`);
    await expect(page.getByRole("region", { name: "Din butik" })).toBeVisible();
    if (theme === "light") await page.getByRole("button", { name: "Byt till ljust tema" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", theme);
    await expectAccessible(page, `the landing page, ${theme}`);

    await page.goto(`/customer/login?store_id=${store.id}`);
    await expect(
      isPhone(page)
        ? page.getByRole("link", { name: "Öppna BankID" })
        : page.getByRole("img", { name: "QR-kod för BankID" }),
    ).toBeVisible();
    await expectAccessible(page, `the login page, ${theme}`);

    await page.getByRole("button", { name: "Quick Dev Login" }).click();
    await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible({ timeout: 10_000 });
    await expectAccessible(page, `the entry QR page, ${theme}`);
    await page.getByRole("button", { name: "Avbryt" }).click();
    await expect(page).toHaveURL(/\/customer(\?|$)/);
  }
});

test("the shopping pages pass the accessibility checks in both themes, with lines, a status and the sheet", async ({
  page,
}) => {
  const visit = await enterStore(page);
  const product = await createProduct(page.request, { price: 24.95, name: "Kaffe mellanrost" });
  expect((await scanThroughApi(page, visit, product.barcode)).ok()).toBe(true);
  for (const theme of ["dark", "light"] as const) {
    await page.goto("/customer/shop");
    await expect(page.getByRole("listitem").filter({ hasText: product.name })).toBeVisible();
    if (theme === "light") await page.getByRole("button", { name: "Byt till ljust tema" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", theme);
    await expectAccessible(page, `the shopping page, ${theme}`);
    await page.getByRole("button", { name: /^Kundvagn/ }).click();
    await expect(page.getByRole("dialog", { name: "Kundvagn" })).toBeVisible();
    await expectAccessible(page, `the cart sheet, ${theme}`);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Kundvagn" })).toBeHidden();

    await page.goto("/customer/manual-scan");
    // The red message of a scanner that could not start.
    await page.getByRole("button", { name: "Starta Scanning" }).click();
    await expect(page.getByText("Kunde inte starta kameran")).toBeVisible();
    await expectAccessible(page, `the manual scan page, ${theme}`);
  }
});

test("the exit, the card page and the receipts pass the accessibility checks in both themes", async ({ page }) => {
  const visit = await enterStore(page);
  const product = await createProduct(page.request, { price: 9.9, name: "Tuggummi" });
  const card = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(card.ok()).toBe(true);
  expect((await scanThroughApi(page, visit, product.barcode)).ok()).toBe(true);
  await page.goto("/customer/exit");
  await expect(page.getByRole("img", { name: "QR-kod för utgången" })).toBeVisible();
  await expectAccessible(page, "the exit QR code, dark");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("region", { name: "Kvitto" })).toBeVisible();
  await expectAccessible(page, "the receipt after payment, dark");
  for (const theme of ["dark", "light"] as const) {
    await page.goto("/customer/betalkort");
    await expect(page.getByTestId("card-on-file")).toBeVisible();
    if (theme === "light") await page.getByRole("button", { name: "Byt till ljust tema" }).click();
    await expectAccessible(page, `the card page, ${theme}`);
    await page.goto("/customer/receipts");
    await expect(page.getByRole("link", { name: new RegExp(visit.store.name) })).toBeVisible();
    await expectAccessible(page, `the receipts, ${theme}`);
  }
});

test("the console's screens and dialogs pass the accessibility checks in both themes", async ({ page }) => {
  // Twenty-four full axe scans: well over the default 30 s on a busy two-core machine.
  test.setTimeout(150_000);
  await signIn(page);
  // A store with a camera system and a camera, so that the camera screen has cards to check.
  const store = await createStore(page.request);
  const system = await page.request.post("/api/v1/cameras/systems", {
    data: { name: "Axe NVR", host: "127.0.0.1", port: 9, store_id: store.id },
  });
  expect(system.status()).toBe(201);
  const systemId = ((await system.json()) as { id: string }).id;
  const camera = await page.request.post("/api/v1/cameras/cameras", {
    data: { name: "Axe Kamera", store_id: store.id, camera_system_id: systemId },
  });
  expect(camera.status()).toBe(201);
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      await page.keyboard.press("Escape");
    }
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
    await expect(page.getByText("In global database")).toBeVisible();
    await expectAccessible(page, `the dashboard, ${theme}`);

    await page.goto("/products");
    await expect(page.getByText(/^\d+ products$/)).toBeVisible();
    await expectAccessible(page, `the products list, ${theme}`);
    await page.getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectAccessible(page, `the add product dialog, ${theme}`);
    await page.keyboard.press("Escape");

    await page.goto("/stores");
    await expect(page.getByRole("heading", { name: "Stores" })).toBeVisible();
    await expectAccessible(page, `the stores list, ${theme}`);
    await page.getByRole("button", { name: "Create Store" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectAccessible(page, `the create store dialog, ${theme}`);
    // With problems shown: the marked tabs and the messages beside the fields keep their contrast and names.
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Store Name *").fill("Axe Butik");
    await dialog.getByLabel("Size (sqm)").fill("12.7");
    await dialog.getByRole("tab", { name: "Settings" }).click();
    await dialog.getByLabel("VAT Rate (%)").fill("150");
    await dialog.getByRole("button", { name: "Create Store" }).click();
    await expect(dialog.getByLabel("Size (sqm)")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, `the create store dialog with problems, ${theme}`);
    await page.keyboard.press("Escape");

    await page.goto("/settings?tab=product");
    const vat = page.getByRole("article", { name: "default_vat_category" });
    await expect(vat).toBeVisible();
    await expectAccessible(page, `the settings, ${theme}`);
    await vat.getByRole("button", { name: /^Edit/ }).click();
    await expect(page.getByRole("combobox", { name: "Default VAT category" })).toBeVisible();
    await expectAccessible(page, `the edit setting dialog, ${theme}`);
    await page.keyboard.press("Escape");

    await page.goto("/cameras");
    const cameraCard = page.getByRole("article", { name: "Axe Kamera", exact: true });
    await expect(cameraCard).toBeVisible();
    await expectAccessible(page, `the cameras, ${theme}`);
    await page.getByRole("button", { name: "Add System", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Add Camera System" })).toBeVisible();
    await expectAccessible(page, `the add system dialog, ${theme}`);
    await page.keyboard.press("Escape");
    await cameraCard.getByRole("button", { name: "Edit" }).click();
    const cameraDialog = page.getByRole("dialog", { name: "Edit Camera" });
    await cameraDialog.getByRole("tab", { name: "Settings" }).click();
    await expect(cameraDialog.getByRole("switch", { name: "AI Enabled" })).toBeVisible();
    await expectAccessible(page, `the edit camera dialog, ${theme}`);
    await page.keyboard.press("Escape");
    await cameraCard.getByRole("button", { name: "History" }).click();
    const history = page.getByRole("dialog", { name: "Axe Kamera History" });
    await expect(history.getByRole("list").or(history.getByText("No status changes recorded yet"))).toBeVisible();
    await expectAccessible(page, `the camera history, ${theme}`);
    await page.keyboard.press("Escape");
  }
  // Deleting the system takes its camera; then the store.
  expect((await page.request.delete(`/api/v1/cameras/systems/${systemId}`)).status()).toBe(204);
  expect((await page.request.delete(`/api/v1/stores/${store.id}`)).ok()).toBe(true);
});

// Analytics reads the admin's own calendar days and each store's figures its own; an operator works in the
// stores' zone. A browser left in UTC would, between midnight in Stockholm and midnight in UTC, look at
// yesterday while the sale made a moment ago is on the store's today.
test.describe("in the stores' time zone", () => {
  test.use({ timezoneId: "Europe/Stockholm" });

  test("the operations screens pass the accessibility checks in the dark theme", async ({ page }) => {
    // Their light theme is checked where each screen is tested (sessions, refunds, analytics and audit specs).
    test.setTimeout(120_000);
    await signIn(page);
    const store = await createStore(page.request);
    const product = await createProduct(page.request, { price: 19.9, name: "Mörk kaffe" });
    const who = await signInShopper(page);
    const visit = await paidVisit(page, who, store, await exitGateKey(page, store), [product.barcode]);
    const complaint = unique("Fel pris på kaffet");
    const dispute = await page.request.post(`/api/v1/receipts/${visit.receiptId}/dispute`, {
      data: { message: complaint },
      headers: who.headers,
    });
    expect(dispute.ok(), await dispute.text()).toBe(true);

    await page.goto("/sessions");
    await openNav(page);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await page.keyboard.press("Escape");

    await page.goto(`/sessions?store=${store.id}`);
    const row = page.locator(`[data-session-id="${visit.sessionId}"]`);
    await expect(row).toContainText("Disputed");
    await expectAccessible(page, "the Sessions list, dark");
    await page.goto(`/sessions?store=${store.id}&session=${visit.sessionId}`);
    const detail = page.getByRole("dialog", { name: who.name });
    await expect(detail.getByRole("region", { name: `Receipt ${visit.receiptNumber}` })).toBeVisible();
    await expectAccessible(page, "the session detail, dark");
    await detail.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Refund", exact: true })).toBeVisible();
    await expectAccessible(page, "the refund dialog, dark");
    await page.keyboard.press("Escape");

    await page.goto("/sessions?view=disputes");
    await expect(page.getByRole("listitem").filter({ hasText: complaint })).toBeVisible();
    await expectAccessible(page, "the Disputes view, dark");
    await page.goto("/sessions?view=spot-checks");
    await expect(page.getByRole("tab", { name: "Spot checks" })).toHaveAttribute("aria-selected", "true");
    await expectAccessible(page, "the Spot checks view, dark");

    await page.goto(`/analytics?store=${store.id}`);
    await expect(page.getByRole("img", { name: /^Revenue per day: 19,90\s*kr/ })).toBeVisible();
    await expectAccessible(page, "the analytics screen, dark");

    await page.goto("/audit");
    const first = page.getByRole(isPhone(page) ? "list" : "table", { name: "Audit log" });
    await expect(first).toBeVisible();
    await expectAccessible(page, "the audit log, dark");
  });
});
