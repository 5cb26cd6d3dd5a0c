import type { Page } from "@playwright/test";
import { expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { createProduct, enterStore, scanThroughApi } from "./support/shopping.ts";

// Jämförpris (issue 24): a product's net content gives its comparison price, computed and never typed,
// shown beside its price in the console and on the shopper's phone.

/** A product in the list view: a table row on a desktop, a card on a phone. */
const listed = (page: Page, name: string) =>
  isPhone(page) ? page.getByRole("article", { name, exact: true }) : page.getByRole("row").filter({ hasText: name });

test("the console works out a product's comparison price from its net content and shows it in the list", async ({
  page,
}) => {
  const sku = unique("JFR").replace(" ", "-");
  const name = unique("Kaffe 500 g");
  await signIn(page, "/products");
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  const content = add.getByLabel("Net content");
  const unit = add.getByLabel("Unit", { exact: true });
  await expect(content).toHaveValue("");
  await expect(unit).toHaveValue("");
  await expect(unit.getByRole("option")).toHaveText(["None", "g", "kg", "ml", "l", "st"]);
  await add.getByLabel("SKU *").fill(sku);
  await add.getByLabel("Name *").fill(name);
  await add.getByLabel("Price (kr) *").fill("24.95");
  await content.fill("500");
  // No unit yet: no comparison price to show, and the server names the missing unit beside Unit.
  await expect(add.getByText(/Comparison price/)).toHaveCount(0);
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(unit).toHaveAttribute("aria-invalid", "true");
  await expect(unit).toHaveAccessibleDescription("net_content_unit is needed with net_content");
  await expect(add).toBeVisible();

  // With the unit, the hint follows what is typed.
  await unit.selectOption("g");
  await expect(content).toHaveAccessibleDescription("Comparison price 49.90 kr/kg");
  await content.fill("1.5");
  await unit.selectOption("kg");
  await expect(content).toHaveAccessibleDescription("Comparison price 16.63 kr/kg");
  await content.fill("500");
  await unit.selectOption("g");
  await expect(content).toHaveAccessibleDescription("Comparison price 49.90 kr/kg");
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(add).toBeHidden();

  await page.getByRole("searchbox", { name: "Search products" }).fill(sku);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await expect(listed(page, name)).toContainText("49.90 kr/kg");
  await page.getByRole("button", { name: "Grid view" }).click();
  await expect(page.getByRole("article", { name, exact: true })).toContainText("49.90 kr/kg");

  // Cleared on edit: the product has no comparison price any more.
  await page
    .getByRole("article", { name, exact: true })
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  await expect(edit.getByLabel("Net content")).toHaveValue("500");
  await expect(edit.getByLabel("Unit", { exact: true })).toHaveValue("g");
  await edit.getByLabel("Net content").fill("");
  await edit.getByLabel("Unit", { exact: true }).selectOption("");
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("article", { name, exact: true })).toContainText("24.95 kr");
  await expect(page.getByRole("article", { name, exact: true })).not.toContainText("kr/kg");
});

test("the shopper sees each line's jämförpris on the shop page, in the sheet and on manual scan", async ({ page }) => {
  const visit = await enterStore(page);
  const juice = await createProduct(page.request, {
    price: 19.9,
    name: unique("Apelsinjuice 1,5 l"),
    net_content: 1.5,
    net_content_unit: "l",
  });
  const plain = await createProduct(page.request, { price: 12, name: unique("Tuggummi") });
  for (const product of [juice, plain]) expect((await scanThroughApi(page, visit, product.barcode)).ok()).toBe(true);

  await page.goto("/customer/shop");
  const juiceLine = page.getByRole("listitem").filter({ hasText: juice.name });
  const plainLine = page.getByRole("listitem").filter({ hasText: plain.name });
  await expect(juiceLine).toContainText("1 st × 19,90 kr");
  await expect(juiceLine.getByText("Jfr-pris 13,27 kr/l")).toBeVisible();
  await expect(plainLine).toContainText("1 st × 12,00 kr");
  await expect(plainLine).not.toContainText("Jfr-pris");
  await expectAccessible(page, "the shopping page with a comparison price");

  await page.getByRole("button", { name: "Kundvagn, 2 st" }).click();
  const sheet = page.getByRole("dialog", { name: "Kundvagn" });
  await expect(sheet.getByRole("listitem").filter({ hasText: juice.name })).toContainText("Jfr-pris 13,27 kr/l");
  await expect(sheet.getByRole("listitem").filter({ hasText: plain.name })).not.toContainText("Jfr-pris");
  await expectAccessible(page, "the cart sheet with a comparison price");
  await page.keyboard.press("Escape");

  await page.goto("/customer/manual-scan");
  await expect(juiceLine).toContainText("19,90 kr/st");
  await expect(juiceLine.getByText("Jfr-pris 13,27 kr/l")).toBeVisible();
  await expect(plainLine).not.toContainText("Jfr-pris");
});
