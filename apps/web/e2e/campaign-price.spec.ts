import { expect, onNarrowestPhone, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

/** A day in Stockholm's calendar, `days` from today: the calendar campaigns run by. */
function stockholmDay(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm" }).format(day);
}

test("a line at a campaign's price says Kampanj with the ordinary price, in the cart, its sheet and the kvitto", async ({
  page,
}) => {
  await onNarrowestPhone(page);
  const visit = await enterStore(page);
  const saved = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const coffee = await createProduct(page.request, { price: 64.9, name: unique("Kaffe 450 g") });
  const bread = await createProduct(page.request, { price: 32.5, name: unique("Bröd") });
  const campaign = await page.request.post("/api/v1/campaigns/", {
    data: { product_id: coffee.id, store_id: null, price: 49.9, starts_on: stockholmDay(-1), ends_on: stockholmDay(6) },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);

  await page.goto("/customer/shop");
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  expect((await scanThroughApi(page, visit, coffee.barcode)).ok()).toBe(true);
  expect((await scanThroughApi(page, visit, bread.barcode)).ok()).toBe(true);
  const line = page.getByRole("listitem").filter({ hasText: coffee.name });
  await expect(line).toContainText("1 st × 49,90 kr");
  await expect(line.getByText("Kampanj", { exact: true })).toBeVisible();
  // The ordinary price is struck through as on the shelf, and said in words to a screen reader.
  await expect(line.locator("s")).toHaveText("64,90 kr");
  await expect(line.getByText("ordinarie pris 64,90 kr")).toBeAttached();
  const plain = page.getByRole("listitem").filter({ hasText: bread.name });
  await expect(plain).toContainText("32,50 kr");
  await expect(plain.getByText("Kampanj")).toHaveCount(0);
  await expect(page.getByTestId("cart-total")).toHaveText("82,40 kr");
  await expectAccessible(page, "a cart line at a campaign's price");
  // The campaign's colours are read in the light theme too.
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", "light");
  await expectAccessible(page, "a cart line at a campaign's price, light theme");

  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  const sheetLine = page
    .getByRole("dialog", { name: "Kundvagn" })
    .getByRole("listitem")
    .filter({ hasText: coffee.name });
  await expect(sheetLine).toContainText("49,90 kr · 1 st");
  await expect(sheetLine.getByText("Kampanj", { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt.getByText("Kampanj, ord. pris 64,90 kr/st")).toBeVisible();
  await expect(receipt).toContainText(/Totalt\s*82,40\s*kr/);
  await expectAccessible(page, "a receipt with a campaign line");
});
