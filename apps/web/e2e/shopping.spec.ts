import type { Locator } from "@playwright/test";
import { expect, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

test("the cart follows every change live, and its buttons change it on the server", async ({ page }) => {
  const visit = await enterStore(page);
  const milk = await createProduct(page.request, { price: 17.9 });
  const bread = await createProduct(page.request, { price: 32.5, name: "Surdegsbröd" });

  await page.goto("/customer/shop");
  await expect(page.getByText("Plocka produkter fritt")).toBeVisible();
  await expect(page.getByRole("heading", { name: "AI Kommer Snart" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Scanna Produkt" })).toBeVisible();
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect(page.getByText("Plocka produkter så läggs de till automatiskt")).toBeVisible();
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("0,00 kr");
  await expect(page.getByRole("link", { name: "Gå till kassan →" })).toHaveAttribute("href", "/customer/exit");

  // A scan served elsewhere (the same shopper's other tab) reaches this page over the live cart.
  expect((await scanThroughApi(page, visit, milk.barcode)).ok()).toBe(true);
  const milkLine = page.getByRole("listitem").filter({ hasText: milk.name });
  await expect(milkLine).toContainText("1 st × 17,90 kr");
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
  await expect(page.getByTestId("cart-total")).toHaveText("17,90 kr");

  await milkLine.getByRole("button", { name: `Öka antal ${milk.name}` }).click();
  await expect(milkLine).toContainText("2 st × 17,90 kr");
  await expect(milkLine).toContainText("35,80 kr");
  expect((await scanThroughApi(page, visit, bread.barcode)).ok()).toBe(true);
  await expect(page.getByTestId("cart-total")).toHaveText("68,30 kr");
  await expect(page.getByTestId("cart-badge")).toHaveText("3");

  // The server holds what the page shows.
  const server = await page.request.get(`/api/v1/cart/${visit.sessionId}`, {
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(((await server.json()) as { total: number }).total).toBe(68.3);

  // Minus on 2 lowers, minus on 1 removes (spec §4).
  await milkLine.getByRole("button", { name: `Minska antal ${milk.name}` }).click();
  await expect(milkLine).toContainText("1 st × 17,90 kr");
  await milkLine.getByRole("button", { name: `Minska antal ${milk.name}` }).click();
  await expect(milkLine).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("32,50 kr");

  // The 'Kundvagn' sheet: lines, total, 'Betala'; the backdrop closes it.
  await page.getByRole("button", { name: "Kundvagn, 1 st" }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText("Surdegsbröd");
  await expect(sheet).toContainText("32,50 kr · 1 st");
  await expect(sheet.getByRole("link", { name: "Betala" })).toHaveAttribute("href", "/customer/exit");
  await page.mouse.click(10, 10);
  await expect(sheet).toBeHidden();

  await page.getByRole("listitem").filter({ hasText: "Surdegsbröd" }).getByRole("button", { name: "Ta bort" }).click();
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("0,00 kr");
  await expect(page.getByTestId("cart-badge")).toHaveCount(0);
});

test("manual scan shows the same server cart, with kr/st and a total bar only when something is in it", async ({
  page,
}) => {
  const visit = await enterStore(page);
  const cheese = await createProduct(page.request, { price: 89, name: "Västerbottensost" });

  await page.goto("/customer/manual-scan");
  await expect(page.getByText("Scanna produkter manuellt")).toBeVisible();
  await expect(page.getByText("Rikta kameran mot produktens streckkod")).toBeVisible();
  await expect(page.getByText("Scanna produkter för att lägga till dem")).toBeVisible();
  await expect(page.getByText("Totalt")).toHaveCount(0);

  expect((await scanThroughApi(page, visit, cheese.barcode)).ok()).toBe(true);
  expect((await scanThroughApi(page, visit, cheese.barcode)).ok()).toBe(true);
  const line = page.getByRole("listitem").filter({ hasText: cheese.name });
  await expect(line).toContainText("89,00 kr/st");
  await expect(line).toContainText("178,00 kr");
  await expect(page.getByTestId("cart-total")).toHaveText("178,00 kr");
  await expect(page.getByTestId("cart-badge")).toHaveText("2");

  // The same cart on the shopping page.
  await page.goto("/customer/shop");
  await expect(page.getByRole("listitem").filter({ hasText: cheese.name })).toContainText("2 st × 89,00 kr");
});

test("a phone without a camera is told so, and scanning without a visit says there is none", async ({ page }) => {
  await enterStore(page);
  // No fake camera in this browser: getUserMedia fails as on a phone that refused the camera.
  await page.goto("/customer/manual-scan");
  await page.getByRole("button", { name: "Starta Scanning" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kunde inte starta kameran" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Starta Scanning" })).toBeFocused();

  await page.evaluate(() => localStorage.removeItem("session_id"));
  await page.reload();
  await page.getByRole("button", { name: "Starta Scanning" }).click();
  await expect(page.getByText("Ingen session hittades")).toBeVisible();
  await expect(page.getByRole("button", { name: "Avbryt" })).toHaveCount(0);
});

test("when the camera fails the barcode is typed: digits only, the check digit checked here, then the same scan", async ({
  page,
}) => {
  await enterStore(page);
  const jam = await createProduct(page.request, { price: 42.5, name: unique("Lingonsylt") });
  await page.goto("/customer/manual-scan");
  await page.getByRole("button", { name: "Starta Scanning" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kunde inte starta kameran" })).toBeVisible();

  const field = page.getByRole("textbox", { name: "Streckkod" });
  await expect(field).toHaveAttribute("inputmode", "numeric");
  await expect(field).toHaveAccessibleDescription(/Skriv siffrorna under streckkoden/);
  const add = page.getByRole("button", { name: "Lägg till" });
  const scans: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/cart/scan")) scans.push(request.url());
  });

  await field.fill("73108650O4703");
  await add.click();
  await expect(page.getByRole("alert")).toHaveText("Streckkoden ska bara innehålla siffror.");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await field.fill("7310865");
  await add.click();
  await expect(page.getByRole("alert")).toHaveText("Streckkoden ska ha 8, 12, 13 eller 14 siffror.");
  // One digit off at the end: the check digit gives it away, and nothing is sent.
  const wrong = `${jam.barcode.slice(0, 12)}${(Number(jam.barcode[12]) + 1) % 10}`;
  await field.fill(wrong);
  await field.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Kontrollsiffran stämmer inte. Kontrollera streckkoden.");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  expect(scans).toEqual([]);
  await expectAccessible(page, "manual scan with a typed barcode refused");

  // The right code, typed with the spaces printed under the bars: the scan call a camera read makes.
  await field.fill(`${jam.barcode.slice(0, 1)} ${jam.barcode.slice(1, 7)} ${jam.barcode.slice(7)}`);
  await expect(field).not.toHaveAttribute("aria-invalid");
  await add.click();
  await expect(page.getByRole("status").filter({ hasText: `✓ ${jam.name} tillagd!` })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: jam.name })).toContainText("42,50 kr/st");
  await expect(field).toHaveValue("");
  await expect(page.getByRole("alert")).toHaveCount(0);
  expect(scans).toHaveLength(1);
});

test("a long product name wraps to two lines in the cart and its sheet; the amounts stay on one line", async ({
  page,
}) => {
  const visit = await enterStore(page);
  const name = `Bregott Normalsaltat Extra Krämigt Bredbart Smörgåsmargarin med Rapsolja ${unique("600 g")}`;
  const spread = await createProduct(page.request, { price: 149.9, name });
  for (let i = 0; i < 2; i++) expect((await scanThroughApi(page, visit, spread.barcode)).ok()).toBe(true);
  const linesOf = (box: Locator) =>
    box.evaluate((element) =>
      Math.round(element.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(element).lineHeight)),
    );

  for (const path of ["/customer/manual-scan", "/customer/shop"]) {
    await page.goto(path);
    const line = page.getByRole("listitem").filter({ hasText: name });
    const title = line.getByText(name);
    await expect(title).toBeVisible();
    expect(await linesOf(title), path).toBe(2);
    const amount = line.getByText("299,80 kr");
    expect(await linesOf(amount), path).toBe(1);
  }
  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  expect(await linesOf(sheet.getByText(name))).toBe(2);
  expect(await linesOf(sheet.getByRole("listitem").getByText("299,80 kr"))).toBe(1);
  await expectAccessible(page, "the cart sheet with a long name");
});

test("a visit the server does not know sends the phone back to the start", async ({ page }) => {
  await enterStore(page);
  // The server has no such visit (another shopper's is refused the same way: 403, tested on the server).
  await page.evaluate(() => localStorage.setItem("session_id", "00000000-0000-4000-8000-000000000000"));
  await page.goto("/customer/manual-scan");
  await expect(page).toHaveURL(/\/customer$/);
  await expect(page.getByRole("heading", { name: "Välkommen till Glide" })).toBeVisible();
});

test("an iPhone home-screen app is told to open Safari, once, and nobody else is", async ({
  page,
  browser,
  baseURL,
}) => {
  await enterStore(page);
  await page.goto("/customer/shop");
  await expect(page.getByRole("button", { name: "Scanna Produkt" })).toBeVisible();
  await expect(page.getByText("Kamerascanning fungerar bäst i Safari.")).toHaveCount(0);
  const storage = await page.context().storageState();

  const iphone = await browser.newContext({
    baseURL,
    storageState: storage,
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  // Safari sets navigator.standalone when the page runs from the home screen.
  await iphone.addInitScript(() => Object.defineProperty(Navigator.prototype, "standalone", { get: () => true }));
  const app = await iphone.newPage();
  await app.goto("/customer/shop");
  await expect(app.getByText("Kamerascanning fungerar bäst i Safari.")).toBeVisible();
  await expect(app.getByRole("link", { name: "Öppna i Safari →" })).toHaveAttribute("href", `${baseURL}/customer/shop`);
  await app.getByRole("button", { name: "Stäng meddelandet" }).click();
  await expect(app.getByText("Kamerascanning fungerar bäst i Safari.")).toHaveCount(0);
  await app.reload();
  await expect(app.getByRole("button", { name: "Scanna Produkt" })).toBeVisible();
  await expect(app.getByText("Kamerascanning fungerar bäst i Safari.")).toHaveCount(0);
  await iphone.close();
});

test("what the store's recognition worker puts in the cart shows on the phone at once", async ({ page }) => {
  const visit = await enterStore(page);
  const soda = await createProduct(page.request, { price: 12, name: "Mineralvatten" });
  const module = await page.request.post(`/api/v1/stores/${visit.store.id}/modules/ai_product_recognition`, {
    data: { enabled: true },
  });
  expect(module.ok(), await module.text()).toBe(true);
  const key = await page.request.post(`/api/v1/stores/${visit.store.id}/device-keys`, {
    data: { kind: "camera_worker" },
  });
  const { key: workerKey } = (await key.json()) as { key: string };

  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  const worker = (action: "add" | "remove") =>
    page.request.post("/api/v1/cart/worker", {
      data: { session_id: visit.sessionId, action, product_id: soda.id },
      headers: { Authorization: `Device ${workerKey}` },
    });
  expect((await worker("add")).ok()).toBe(true);
  expect((await worker("add")).ok()).toBe(true);
  await expect(page.getByRole("listitem").filter({ hasText: soda.name })).toContainText("2 st × 12,00 kr");
  await expect(page.getByTestId("cart-total")).toHaveText("24,00 kr");
  expect((await worker("remove")).ok()).toBe(true);
  await expect(page.getByRole("listitem").filter({ hasText: soda.name })).toContainText("1 st × 12,00 kr");
  await expect(page.getByTestId("cart-badge")).toHaveText("1");
});

test("a dropped live connection comes back by itself and brings what was missed", async ({ page }) => {
  const visit = await enterStore(page);
  const apple = await createProduct(page.request, { price: 5.5, name: "Äpple Ingrid Marie" });
  const connections: { close(options?: { code?: number; reason?: string }): Promise<void> }[] = [];
  // Every live-cart socket goes through the real server; the test can cut one as a radio shadow would.
  await page.routeWebSocket(/\/ws\/cart/, (ws) => {
    ws.connectToServer();
    connections.push(ws);
  });

  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect.poll(() => connections.length).toBe(1);
  await connections[0]!.close({ code: 4000, reason: "radio shadow" });

  // While the phone is away, the cart changes elsewhere.
  expect((await scanThroughApi(page, visit, apple.barcode)).ok()).toBe(true);
  // The page connects again (about a second later) and shows the cart as it now is.
  await expect.poll(() => connections.length, { timeout: 10_000 }).toBe(2);
  await expect(page.getByRole("listitem").filter({ hasText: apple.name })).toContainText("1 st × 5,50 kr");
  // And the new connection carries later changes live.
  expect((await scanThroughApi(page, visit, apple.barcode)).ok()).toBe(true);
  await expect(page.getByRole("listitem").filter({ hasText: apple.name })).toContainText("2 st × 5,50 kr");
});
