import type { Locator, Page } from "@playwright/test";
import { expect, onNarrowestPhone, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { printedVoucher, voucherCode } from "./support/pant.ts";
import { createProduct, enterStore, scanThroughApi, type Visit } from "./support/shopping.ts";

async function saveCard(page: Page, visit: Visit) {
  const saved = await page.request.put("/api/v1/payment-method", {
    data: { payment_method: "pm_card_visa" },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
}

/** The digits typed on the manual-scan page, as a shopper does where the camera cannot read a code. */
async function typeCode(page: Page, code: string) {
  await page.getByLabel("Streckkod", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Lägg till" }).click();
}

/** The cart sheet, opened from the header's cart button (named "Kundvagn" or "Kundvagn, 3 st"). */
async function openSheet(page: Page, name: string): Promise<Locator> {
  await page.getByRole("button", { name, exact: true }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  await expect(sheet).toBeVisible();
  return sheet;
}

/** The voucher as a line of its own: seen as "Pantkvitto −24,00 kr" (a true minus sign), heard as "… betalar 24,00 kr". */
async function expectVoucherLine(where: Locator, { removable }: { removable: boolean }) {
  const vouchers = where.getByRole("list", { name: "Pantkvitton" });
  await expect(vouchers.getByRole("listitem")).toHaveCount(1);
  await expect(vouchers.getByText("−24,00 kr", { exact: true })).toBeVisible();
  await expect(vouchers).toMatchAriaSnapshot(
    removable
      ? `
    - list "Pantkvitton":
      - listitem:
        - text: /Pantkvitto\\s*betalar 24,00 kr/
        - button "Ta bort pantkvitto 24,00 kr"
  `
      : `
    - list "Pantkvitton":
      - listitem: /Pantkvitto\\s*betalar 24,00 kr/
  `,
  );
}

const status = (page: Page) => page.getByRole("status").filter({ hasText: /[✓✗]/ });

test("a pant machine voucher typed in pays part of the cart, once, can be taken out, and shows on the kvitto", async ({
  page,
}) => {
  await onNarrowestPhone(page);
  const visit = await enterStore(page);
  await saveCard(page, visit);
  const coffee = await createProduct(page.request, { price: 49.9, name: unique("Bryggkaffe 450 g") });
  const code = await printedVoucher(page.request, visit.store.id, 24);

  await page.goto("/customer/manual-scan");
  await expect(page.getByText("Scanna produkter för att lägga till dem")).toBeVisible();
  await typeCode(page, code);
  await expect(status(page)).toHaveText("✓ Pantkvitto 24,00 kr tillagt!");
  let sheet = await openSheet(page, "Kundvagn");
  await expectVoucherLine(sheet, { removable: true });
  await expect(sheet).toContainText(/Att betala\s*0,00\s*kr/);
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  // The same voucher again: the server's refusal, in Swedish, where a scan's answer shows.
  await typeCode(page, code);
  await expect(status(page)).toHaveText("✗ Pantkvittot finns redan i din kundvagn.");
  // A well-formed code that no pant machine printed pays nothing.
  await typeCode(page, voucherCode(500));
  await expect(status(page)).toHaveText(
    "✗ Pantkvittot känns inte igen: ingen av våra pantmaskiner har skrivit ut det. Fråga personalen om du tror att det är fel.",
  );

  // Goods: two from another device, one typed here. The bar keeps the spec's 'Totalt' and adds what the card pays.
  expect((await scanThroughApi(page, visit, coffee.barcode)).ok()).toBe(true);
  expect((await scanThroughApi(page, visit, coffee.barcode)).ok()).toBe(true);
  await typeCode(page, coffee.barcode);
  await expect(page.getByTestId("cart-badge")).toHaveText("3");
  await expect(page.getByTestId("cart-total")).toHaveText("149,70 kr");
  await expect(page.getByTestId("cart-to-pay")).toHaveText("Att betala 125,70 kr");
  sheet = await openSheet(page, "Kundvagn, 3 st");
  await expect(sheet).toContainText(/Totalt\s*149,70\s*kr/);
  await expectVoucherLine(sheet, { removable: true });
  await expect(sheet).toContainText(/Att betala\s*125,70\s*kr/);

  // Taken out: no voucher line, no "Att betala", the bar shows the total; focus stays in the sheet.
  await sheet.getByRole("button", { name: "Ta bort pantkvitto 24,00 kr" }).click();
  await expect(sheet.getByRole("list", { name: "Pantkvitton" })).toHaveCount(0);
  await expect(sheet.getByText("Att betala")).toHaveCount(0);
  await expect(sheet.getByRole("button", { name: "Stäng" })).toBeFocused();
  await page.keyboard.press("Escape");
  // The sheet's own "Totalt" leaves with it (after its closing animation), so the only one left is the bar's.
  await expect(sheet).toBeHidden();
  await expect(page.getByText("Totalt", { exact: true })).toHaveCount(1);
  await expect(page.getByText("Totalt", { exact: true })).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("149,70 kr");
  await expect(page.getByTestId("cart-to-pay")).toHaveCount(0);

  // Free again: the same voucher goes back in.
  await typeCode(page, code);
  await expect(status(page)).toHaveText("✓ Pantkvitto 24,00 kr tillagt!");
  await expect(page.getByTestId("cart-total")).toHaveText("149,70 kr");
  await expect(page.getByTestId("cart-to-pay")).toHaveText("Att betala 125,70 kr");

  // The shopping page's sheet shows the same, read in both themes.
  await page.goto("/customer/shop");
  sheet = await openSheet(page, "Kundvagn, 3 st");
  await expectVoucherLine(sheet, { removable: true });
  await expect(sheet).toContainText(/Att betala\s*125,70\s*kr/);
  await expectAccessible(page, "the cart sheet with a pant machine voucher");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-shopper-theme", "light");
  sheet = await openSheet(page, "Kundvagn, 3 st");
  await expectVoucherLine(sheet, { removable: true });
  await expectAccessible(page, "the cart sheet with a pant machine voucher, light theme");
  await page.keyboard.press("Escape");

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  const receipt = page.getByRole("region", { name: "Kvitto", exact: true });
  await expect(receipt).toContainText(new RegExp(`3 x ${coffee.name}\\s*149,70\\s*kr`));
  await expect(receipt).toContainText(/Totalt\s*149,70\s*kr/);
  await expectVoucherLine(receipt, { removable: false });
  await expect(receipt.getByRole("button", { name: /Ta bort pantkvitto/ })).toHaveCount(0);
  await expect(receipt).toContainText(/Betalt med kort\s*125,70\s*kr/);
  await expectAccessible(page, "a receipt paid partly with a pant machine voucher");
});

test("vouchers worth the whole cart are refused at the exit with the server's reason, and the cart stays", async ({
  page,
}) => {
  const visit = await enterStore(page);
  await saveCard(page, visit);
  const milk = await createProduct(page.request, { price: 17.9 });
  expect((await scanThroughApi(page, visit, milk.barcode)).ok()).toBe(true);
  const added = await page.request.post("/api/v1/cart/vouchers", {
    data: { session_id: visit.sessionId, barcode: await printedVoucher(page.request, visit.store.id, 24) },
    headers: { Authorization: `Bearer ${visit.accessToken}` },
  });
  expect(added.ok(), await added.text()).toBe(true);

  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Pantkvittona täcker hela köpet" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("alert")).toContainText(/Dina pantkvitton \(24,00 kr\) täcker hela köpet \(17,90 kr\)/);
  await expectAccessible(page, "the exit refusing vouchers worth the whole cart");

  // Back to the cart, still open: one more piece and the exit pays the rest.
  await page.getByRole("link", { name: "Tillbaka till kundvagnen" }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("17,90 kr");
  await expect(page.getByTestId("cart-to-pay")).toHaveText("Att betala 0,00 kr");
  expect((await scanThroughApi(page, visit, milk.barcode)).ok()).toBe(true);
  await expect(page.getByTestId("cart-total")).toHaveText("35,80 kr");
  await expect(page.getByTestId("cart-to-pay")).toHaveText("Att betala 11,80 kr");
  await page.goto("/customer/exit");
  await page.getByRole("button", { name: "Kunde inte scanna? Tryck här" }).click();
  await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("region", { name: "Kvitto", exact: true })).toContainText(/Betalt med kort\s*11,80\s*kr/);
});
