import type { VatCategory } from "@glide/contracts";
import type { Locator, Page } from "@playwright/test";
import { createStore, expect, onNarrowestPhone, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { exitGateKey, paidVisit, type Shopper, signInShopper } from "./support/sales.ts";
import { createProduct, enterStore, randomEan13, scanThroughApi } from "./support/shopping.ts";

/** Long enough to need three lines on any phone: the receipt and the cart show two, then an ellipsis. */
const LONG_NAME = "Bregott Normalsaltat Extra Krämigt Bredbart Smörgåsmargarin med Rapsolja Familjeförpackning";

/** A product in a VAT category of its own, made by the test admin. */
async function productAt(page: Page, fields: { name: string; price: number; vat_category: VatCategory }) {
  const barcode = randomEan13();
  const created = await page.request.post("/api/v1/products/", {
    data: { sku: unique("SKU").replaceAll(" ", "-"), barcode, category: "Test", ...fields },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { ...fields, barcode };
}

/** Opens a shopper page with the shopper's tokens where the shopper app keeps them. */
async function asShopper(page: Page, who: Shopper, path: string) {
  await page.goto("/customer/not-a-page");
  await page.evaluate((who) => {
    localStorage.setItem("glide_access_token", who.accessToken);
    localStorage.setItem("auth_token", who.accessToken);
    localStorage.setItem("glide_refresh_token", who.refreshToken);
    localStorage.setItem("glide_user_id", who.userId);
    localStorage.setItem("glide_user_name", who.name);
  }, who);
  await page.goto(path);
}

/** How many lines of text a box shows: its height over its line height. */
const linesOf = (box: Locator) =>
  box.evaluate((element) => {
    const style = getComputedStyle(element);
    const lineHeight = Number.parseFloat(style.lineHeight);
    return Math.round(element.getBoundingClientRect().height / lineHeight);
  });

/** A receipt row: its label and its amount, found by the label's start. */
const row = (receipt: Locator, label: string | RegExp) =>
  receipt.locator("div").filter({ has: receipt.page().locator(":scope > span:first-child", { hasText: label }) });

// Dev-login is one shopper for every spec: the address these tests give is taken away again.
test.afterEach(async ({ page }) => {
  const login = await page.request.post("/api/v1/auth/dev-login");
  const { access_token } = (await login.json()) as { access_token: string };
  await page.request.put("/api/v1/profile/email", {
    data: { email: null },
    headers: { Authorization: `Bearer ${access_token}` },
  });
});

test("after a refund the receipt shows what was paid, what came back per VAT rate and the net; long names wrap, amounts do not", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  // Books and newspapers are 6 % on any day (food's rate moves with the law): a spread sold at that rate.
  const spread = await productAt(page, {
    name: `${LONG_NAME} ${unique("600 g")}`,
    price: 49.9,
    vat_category: "books_newspapers",
  });
  const soap = await productAt(page, { name: unique("Diskmedel"), price: 34.5, vat_category: "standard" });
  const who = await signInShopper(page);
  // An address on file, but this server has no SMTP_URL: nothing is e-mailed, and the receipt must not say so.
  const email = await page.request.put("/api/v1/profile/email", {
    data: { email: "kund@example.se" },
    headers: who.headers,
  });
  expect(email.ok(), await email.text()).toBe(true);
  const visit = await paidVisit(page, who, store, gateKey, [spread.barcode, spread.barcode, soap.barcode]);

  // Staff give back one spread (6 %) and the soap (25 %) in one refund.
  const order = (await (await page.request.get(`/api/v1/admin/orders/${visit.receiptId}/refunds`)).json()) as {
    lines: Array<{ id: string; name: string }>;
  };
  const lineId = (name: string) => order.lines.find((line) => line.name === name)!.id;
  const refunded = await page.request.post(`/api/v1/admin/orders/${visit.receiptId}/refunds`, {
    data: {
      idempotency_key: crypto.randomUUID(),
      reason: "Trasig förpackning",
      lines: [
        { line_id: lineId(spread.name), quantity: 1 },
        { line_id: lineId(soap.name), quantity: 1 },
      ],
    },
  });
  expect(refunded.status(), await refunded.text()).toBe(201);

  await asShopper(page, who, `/customer/receipts/${visit.receiptId}`);
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  // Paid 2 × 49,90 kr at 6 % (5,65 kr VAT) and 34,50 kr at 25 % (6,90 kr): 134,30 kr.
  await expect(row(receipt, "Totalt")).toHaveText(/Totalt\s*134,30\s*kr/);
  await expect(receipt.getByRole("list", { name: "Återbetalningar" })).toContainText(/−84,40\s*kr/);
  await expect(row(receipt, /^Betalt$/)).toHaveText(/Betalt\s*134,30\s*kr/);
  await expect(row(receipt, /^Återbetalt$/)).toHaveText(/Återbetalt\s*−84,40\s*kr/);
  await expect(row(receipt, /^Netto$/)).toHaveText(/Netto\s*49,90\s*kr/);
  // VAT per rate: on the purchase, on what came back (49,90 kr → 2,82 kr; 34,50 kr → 6,90 kr), and on the net.
  const vatRows = await row(receipt, /^Varav moms/).allInnerTexts();
  expect(vatRows.map((text) => text.replace(/\s+/g, " "))).toEqual([
    "Varav moms 25 % 6,90 kr",
    "Varav moms 6 % 5,65 kr",
    "Varav moms 25 % −6,90 kr",
    "Varav moms 6 % −2,82 kr",
    "Varav moms 6 % 2,83 kr",
  ]);
  await expect(receipt).not.toContainText("Att betala");
  // The brand as it is written, never the provider's lower case.
  await expect(receipt).toContainText("Betalt med Visa •••• 4242");
  await expect(receipt).not.toContainText("visa");
  await expect(receipt).not.toContainText("Kvitto skickat till din e-post");

  // The long name: two lines, then cut; its amount on one line.
  const spreadRow = row(receipt, `2 x ${LONG_NAME}`);
  const label = spreadRow.locator(":scope > span").first();
  const amount = spreadRow.locator(":scope > span").last();
  await expect(amount).toHaveText("99,80 kr");
  expect(await linesOf(label)).toBe(2);
  expect(await linesOf(amount)).toBe(1);
  for (const box of await receipt.locator("[data-amount]").all()) expect(await linesOf(box)).toBe(1);
  await expectAccessible(page, "a refunded receipt");
});

test("the receipt says it was e-mailed only when the server says a mail was queued for it", async ({ page }) => {
  const store = await createStore(page.request);
  const gateKey = await exitGateKey(page, store);
  const tea = await productAt(page, { name: unique("Te"), price: 25, vat_category: "food" });
  const who = await signInShopper(page);
  const visit = await paidVisit(page, who, store, gateKey, [tea.barcode]);

  await asShopper(page, who, `/customer/receipts/${visit.receiptId}`);
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt).toContainText(`1 x ${tea.name}`);
  await expect(page.getByText("Kvitto skickat till din e-post")).toHaveCount(0);

  // The same receipt as a server with a mail server answers it (this one has none: its answer, marked).
  await page.route(`**/api/v1/receipts/${visit.receiptId}`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), emailed: true } });
  });
  await page.reload();
  await expect(receipt).toContainText(`1 x ${tea.name}`);
  await expect(receipt.getByText("Kvitto skickat till din e-post")).toBeVisible();
});

test("the exit's receipt: a long name on two lines, amounts on one, the card's brand written out, no e-mail claimed", async ({
  page,
}) => {
  const visit = await enterStore(page);
  const spread = await productAt(page, { name: `${LONG_NAME} ${unique("300 g")}`, price: 49.9, vat_category: "food" });
  const card = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_mastercard" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(card.ok(), await card.text()).toBe(true);
  const email = await page.request.put("/api/v1/profile/email", {
    data: { email: "kund@example.se" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(email.ok(), await email.text()).toBe(true);
  expect((await scanThroughApi(page, visit, spread.barcode)).ok()).toBe(true);

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible();
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt).toContainText("Betalt med Mastercard •••• 4444");
  const line = row(receipt, `1 x ${LONG_NAME}`);
  await expect(line.locator(":scope > span").last()).toHaveText("49,90 kr");
  expect(await linesOf(line.locator(":scope > span").first())).toBe(2);
  for (const box of await receipt.locator("[data-amount]").all()) expect(await linesOf(box)).toBe(1);
  await expect(page.getByText("Kvitto skickat till din e-post")).toHaveCount(0);
  await expectAccessible(page, "the exit's receipt");
});

test("a drink's pant is a line of its own under it in the cart, its sheet and the receipt, and counts in the totals", async ({
  page,
}) => {
  await onNarrowestPhone(page);
  const visit = await enterStore(page);
  const saved = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  // A can: 2 kr of pant in a Swedish store.
  const cola = await createProduct(page.request, { price: 12.9, name: unique("Cola 33 cl burk"), pant_code: "can" });

  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  // The first scan is a new line, read whole; the second is one more, counted on the phone from product_added.
  expect((await scanThroughApi(page, visit, cola.barcode)).ok()).toBe(true);
  const line = page.getByRole("listitem").filter({ hasText: cola.name });
  await expect(line).toContainText("Pant 2,00 kr");
  expect((await scanThroughApi(page, visit, cola.barcode)).ok()).toBe(true);
  await expect(line).toContainText("2 st × 12,90 kr");
  await expect(line.getByText("25,80 kr", { exact: true })).toBeVisible();
  const pant = line.getByText("Pant 2 × 2,00 kr", { exact: true });
  await expect(pant).toBeVisible();
  await expect(line.getByText("4,00 kr", { exact: true })).toBeVisible();
  // 2 × 12,90 kr and 4,00 kr of pant.
  await expect(page.getByTestId("cart-total")).toHaveText("29,80 kr");
  // Compact: one line of small text under the name, not a second card.
  expect(await linesOf(pant)).toBe(1);

  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  const sheetLine = sheet.getByRole("listitem").filter({ hasText: cola.name });
  await expect(sheetLine).toContainText("12,90 kr · 2 st");
  await expect(sheetLine).toContainText(/Pant 2 × 2,00 kr\s*4,00 kr/);
  await expect(sheet).toContainText(/Totalt\s*29,80 kr/);
  await expectAccessible(page, "the cart sheet with a line's pant");
  await page.keyboard.press("Escape");

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(row(receipt, `2 x ${cola.name}`)).toHaveText(/25,80\s*kr$/);
  await expect(row(receipt, /^Pant/)).toHaveText(/^Pant 2 × 2,00 kr\s*4,00 kr$/);
  await expect(row(receipt, "Totalt")).toHaveText(/Totalt\s*29,80\s*kr/);
  for (const box of await receipt.locator("[data-amount]").all()) expect(await linesOf(box)).toBe(1);
  await expectAccessible(page, "a receipt with pant");
});
