import type { Product } from "@glide/contracts";
import type { Page } from "@playwright/test";
import { expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import { todayText } from "./support/vat.ts";

// A product's VAT is a category (issue 24); the form says the rate it has today beside it.

const FOOD = "Food (livsmedel, folköl)";

/** The product as the API answers it, found by its SKU. */
async function productBySku(page: Page, sku: string): Promise<Product> {
  const response = await page.request.get(`/api/v1/products/?search=${encodeURIComponent(sku)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const found = ((await response.json()) as Product[]).find((product) => product.sku === sku);
  expect(found, sku).toBeDefined();
  return found!;
}

test("a product added as food keeps the category, and the form says the rate each category has today", async ({
  page,
}) => {
  const sku = unique("VAT").replace(" ", "-");
  const name = unique("Havregryn");
  await signIn(page, "/products");
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  const vat = add.getByLabel("VAT Category");
  await expect(vat).toHaveValue("standard");
  await expect(vat).toHaveAccessibleDescription(todayText("standard"));
  await expect(vat.getByRole("option")).toHaveText([
    "Standard",
    FOOD,
    "Alcoholic drink (over 3.5 %)",
    "Books and newspapers",
    "Exempt",
  ]);
  await add.getByLabel("SKU *").fill(sku);
  await add.getByLabel("Name *").fill(name);
  await add.getByLabel("Price (kr) *").fill("18.50");
  await vat.selectOption({ label: FOOD });
  await expect(vat).toHaveAccessibleDescription(todayText("food"));
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(add).toBeHidden();

  // Saved as a category; the answer carries the rate valid today.
  const saved = await productBySku(page, sku);
  expect(saved.vat_category).toBe("food");
  expect(`${saved.vat_rate} % today`).toBe(todayText("food"));

  // In the list, and in its edit dialog with the same hint.
  await page.getByRole("searchbox", { name: "Search products" }).fill(sku);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  const item = isPhone(page)
    ? page.getByRole("article", { name, exact: true })
    : page.getByRole("row").filter({ hasText: name });
  await item.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  const category = edit.getByLabel("VAT Category");
  await expect(category).toHaveValue("food");
  await expect(category).toHaveAccessibleDescription(todayText("food"));

  // Another category shows its own rate; the product changes only when saved.
  await category.selectOption({ label: "Exempt" });
  await expect(category).toHaveAccessibleDescription(todayText("exempt"));
  await category.selectOption({ label: "Alcoholic drink (over 3.5 %)" });
  await expect(category).toHaveAccessibleDescription(todayText("alcoholic_drink"));
  expect((await productBySku(page, sku)).vat_category).toBe("food");
  await category.selectOption({ label: "Books and newspapers" });
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  expect((await productBySku(page, sku)).vat_category).toBe("books_newspapers");
});

test("without the rate table the form still works, only without the hint", async ({ page }) => {
  await page.route("**/api/v1/vat-rates**", (route) =>
    route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ detail: "Forbidden" }) }),
  );
  const sku = unique("NOVAT").replace(" ", "-");
  const name = unique("Utan tabell");
  await signIn(page, "/products");
  const rates = page.waitForResponse((response) => response.url().includes("/api/v1/vat-rates"));
  await page.getByRole("button", { name: "Add Product" }).click();
  await rates;
  const add = page.getByRole("dialog", { name: "Add Product" });
  const vat = add.getByLabel("VAT Category");
  await vat.selectOption({ label: FOOD });
  await expect(vat).toHaveAccessibleDescription("");
  await expect(add.getByText(/% today$/)).toHaveCount(0);
  await add.getByLabel("SKU *").fill(sku);
  await add.getByLabel("Name *").fill(name);
  await add.getByLabel("Price (kr) *").fill("10");
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(add).toBeHidden();
  expect((await productBySku(page, sku)).vat_category).toBe("food");

  // Editing, the product's own answer says its category's rate; another category has none to show.
  await page.getByRole("searchbox", { name: "Search products" }).fill(sku);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const category = page.getByRole("dialog", { name: "Edit Product" }).getByLabel("VAT Category");
  await expect(category).toHaveAccessibleDescription(todayText("food"));
  await category.selectOption({ label: "Standard" });
  await expect(category).toHaveAccessibleDescription("");
});
