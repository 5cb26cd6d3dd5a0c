import type { Product } from "@glide/contracts";
import type { Page } from "@playwright/test";
import { createStore, expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import { exitGateKey, paidVisit, shopInStore, signInShopper } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

// Pant: a product carries the mark on its package; the console names each mark with its Swedish amount,
// and the Sessions screen shows the pant as a line of its own under its product.

/** The product as GET /api/v1/products/:id answers it. */
async function productById(page: Page, id: string): Promise<Product> {
  const response = await page.request.get(`/api/v1/products/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Product;
}

/** A product in the list view: a table row on a desktop, a card on a phone. */
const listed = (page: Page, name: string) =>
  isPhone(page) ? page.getByRole("article", { name, exact: true }) : page.getByRole("row").filter({ hasText: name });

test("a product's pant is chosen on the form, kept when reopened and cleared with None", async ({ page }) => {
  const sku = unique("PANT").replace(" ", "-");
  const name = unique("Cola 33 cl");
  await signIn(page, "/products");
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  const pant = add.getByLabel("Pant", { exact: true });
  await expect(pant).toHaveValue("");
  await expect(pant.getByRole("option")).toHaveText([
    "None",
    "Can (2 kr)",
    "PET bottle up to 1 l (2 kr)",
    "PET bottle over 1 l (3 kr)",
    "Can marked 1 kr (1 kr)",
    "PET bottle up to 1 l marked 1 kr (1 kr)",
    "PET bottle over 1 l marked 2 kr (2 kr)",
  ]);
  await add.getByLabel("SKU *").fill(sku);
  await add.getByLabel("Name *").fill(name);
  await add.getByLabel("Price (kr) *").fill("12.90");
  await pant.selectOption({ label: "Can (2 kr)" });
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(add).toBeHidden();

  // In the list with its pant beside the price, and the API answers the mark.
  await page.getByRole("searchbox", { name: "Search products" }).fill(sku);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await expect(listed(page, name)).toContainText("+ 2 kr pant");
  await listed(page, name)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  await expect(edit.getByLabel("Pant", { exact: true })).toHaveValue("can");
  const search = await page.request.get(`/api/v1/products/?search=${encodeURIComponent(sku)}`);
  const id = ((await search.json()) as Product[]).find((product) => product.sku === sku)?.id;
  expect(id, sku).toBeDefined();
  expect((await productById(page, id!)).pant_code).toBe("can");

  // Another mark, saved and reopened.
  await edit.getByLabel("Pant", { exact: true }).selectOption({ label: "PET bottle over 1 l (3 kr)" });
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  await expect(listed(page, name)).toContainText("+ 3 kr pant");
  expect((await productById(page, id!)).pant_code).toBe("pet_large");

  // None clears it.
  await listed(page, name)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  await expect(edit.getByLabel("Pant", { exact: true })).toHaveValue("pet_large");
  await edit.getByLabel("Pant", { exact: true }).selectOption({ label: "None" });
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  await expect(listed(page, name)).not.toContainText("pant");
  expect((await productById(page, id!)).pant_code).toBeNull();
  await listed(page, name)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  await expect(edit.getByLabel("Pant", { exact: true })).toHaveValue("");
});

test("the session detail shows each line's pant under its product, in the cart and on the receipt", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page);
  const store = await createStore(page.request);
  const cola = await createProduct(page.request, { price: 12.9, name: unique("Pantcola"), pant_code: "can" });
  const bun = await createProduct(page.request, { price: 15, name: unique("Pantbulle") });
  const who = await signInShopper(page);

  // Charged at the exit: the receipt has the pant row under the cola and none under the bun.
  const paid = await paidVisit(page, who, store, await exitGateKey(page, store), [
    cola.barcode,
    cola.barcode,
    bun.barcode,
  ]);
  await page.goto(`/sessions?session=${paid.sessionId}`);
  const receipt = page
    .getByRole("dialog", { name: who.name })
    .getByRole("region", { name: `Receipt ${paid.receiptNumber}` });
  const rows = receipt.getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText(cola.name);
  await expect(rows.nth(1)).toContainText("25,80 kr");
  await expect(rows.nth(2)).toContainText("Pant 2 × 2,00 kr");
  await expect(rows.nth(2)).toContainText("4,00 kr");
  await expect(rows.nth(3)).toContainText(bun.name);
  await page.keyboard.press("Escape");

  // Still shopping: the cart's line has its pant under it.
  const open = await shopInStore(page, who, store, [cola.barcode]);
  await page.goto(`/sessions?session=${open.session_id}`);
  const cart = page.getByRole("dialog", { name: who.name }).getByRole("list", { name: "Cart" });
  const line = cart.getByRole("listitem").filter({ hasText: cola.name });
  await expect(line).toContainText(`1 × ${cola.name}`);
  await expect(line).toContainText("Pant 1 × 2,00 kr");
  await expect(cart.getByRole("listitem")).toHaveCount(1);
});
