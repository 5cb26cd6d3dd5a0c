import type { Locator, Page } from "@playwright/test";
import { expect, onNarrowestPhone, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

/** A day in Stockholm's calendar, `days` from today: the calendar offers run by in a Swedish store. */
function stockholmDay(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm" }).format(day);
}

const LABEL = "3 för 2 Bregott";

/** The cart sheet, opened from the header's cart button that counts `count` pieces. */
async function openSheet(page: Page, count: number): Promise<Locator> {
  await page.getByRole("button", { name: `Kundvagn, ${count} st` }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  await expect(sheet).toBeVisible();
  return sheet;
}

/** The discount as a line of its own: seen as "−49,90 kr" (a true minus sign), heard as "rabatt 49,90 kr". */
async function expectDiscountLine(where: Locator) {
  const discounts = where.getByRole("list", { name: "Rabatter" });
  await expect(discounts.getByRole("listitem")).toHaveCount(1);
  await expect(discounts.getByRole("listitem")).toContainText(LABEL);
  await expect(discounts.getByText("−49,90 kr", { exact: true })).toBeVisible();
  await expect(discounts).toMatchAriaSnapshot(`
    - list "Rabatter":
      - listitem: /3 för 2 Bregott\\s*rabatt 49,90 kr/
  `);
}

test("a 3 för 2 offer is a discount line under the goods in the cart sheet and on the kvitto, the totals after it", async ({
  page,
}) => {
  await onNarrowestPhone(page);
  const visit = await enterStore(page);
  const saved = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const butter = await createProduct(page.request, { price: 49.9, name: unique("Bregott 600 g") });
  const offer = await page.request.post("/api/v1/offers", {
    data: {
      label: LABEL,
      kind: "one_free",
      buy: 3,
      product_ids: [butter.id],
      store_id: visit.store.id,
      starts_on: stockholmDay(-1),
      ends_on: stockholmDay(6),
      limit_per_visit: null,
    },
  });
  expect(offer.status(), await offer.text()).toBe(201);

  // Two from another device: no discount yet, the total is the lines'.
  await page.goto("/customer/manual-scan");
  await expect(page.getByText("Scanna produkter för att lägga till dem")).toBeVisible();
  expect((await scanThroughApi(page, visit, butter.barcode)).ok()).toBe(true);
  expect((await scanThroughApi(page, visit, butter.barcode)).ok()).toBe(true);
  await expect(page.getByTestId("cart-badge")).toHaveText("2");
  await expect(page.getByTestId("cart-total")).toHaveText("99,80 kr");

  // The third typed on this phone: the scan's answer brings the discount and the total after it.
  await page.getByLabel("Streckkod", { exact: true }).fill(butter.barcode);
  await page.getByRole("button", { name: "Lägg till" }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("3");
  await expect(page.getByTestId("cart-total")).toHaveText("99,80 kr");
  let sheet = await openSheet(page, 3);
  await expect(sheet.getByRole("listitem").filter({ hasText: butter.name })).toContainText("149,70 kr");
  await expectDiscountLine(sheet);
  await expect(sheet).toContainText(/Totalt\s*99,80\s*kr/);
  await page.keyboard.press("Escape");

  // One taken out: the offer no longer applies, and the total is the lines' again.
  const line = page.getByRole("listitem").filter({ hasText: butter.name });
  await line.getByRole("button", { name: `Minska antal ${butter.name}` }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("2");
  sheet = await openSheet(page, 2);
  await expect(sheet.getByRole("listitem").filter({ hasText: butter.name })).toContainText("99,80 kr");
  await expect(sheet.getByRole("list", { name: "Rabatter" })).toHaveCount(0);
  await expect(sheet.getByText(LABEL)).toHaveCount(0);
  await expect(sheet).toContainText(/Totalt\s*99,80\s*kr/);
  await page.keyboard.press("Escape");
  await line.getByRole("button", { name: `Öka antal ${butter.name}` }).click();
  await expect(page.getByTestId("cart-badge")).toHaveText("3");

  // The shopping page's sheet shows the same, read in both themes.
  await page.goto("/customer/shop");
  sheet = await openSheet(page, 3);
  await expectDiscountLine(sheet);
  await expect(sheet).toContainText(/Totalt\s*99,80\s*kr/);
  await expect(page.getByTestId("cart-total")).toHaveText("99,80 kr");
  await expectAccessible(page, "the cart sheet with a multi-buy discount");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", "light");
  sheet = await openSheet(page, 3);
  await expectDiscountLine(sheet);
  await expectAccessible(page, "the cart sheet with a multi-buy discount, light theme");
  await page.keyboard.press("Escape");

  // The console's visit shows the open cart as the shopper sees it: the discount under the goods, the total after it.
  await page.goto(`/sessions?session=${visit.sessionId}`);
  const cart = page.getByRole("dialog").getByRole("list", { name: "Cart" });
  await expect(cart.getByRole("listitem").filter({ hasText: LABEL })).toContainText("−49,90 kr");
  await expect(cart.getByRole("listitem").filter({ hasText: /^Total/ })).toContainText("99,80 kr");
  await expect(cart).not.toContainText("To pay by card");
  await expectAccessible(page, "a visit's open cart with a multi-buy discount in the console");

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt).toContainText(new RegExp(`3 x ${butter.name}\\s*149,70\\s*kr`));
  await expectDiscountLine(receipt);
  await expect(receipt).toContainText(/Totalt\s*99,80\s*kr/);
  await expectAccessible(page, "a receipt with a multi-buy discount");
});
