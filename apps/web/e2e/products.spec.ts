import { readFile } from "node:fs/promises";
import { gtinCheckDigit } from "@glide/contracts";
import type { Page } from "@playwright/test";
import { expect, signIn, test, unique } from "./fixtures.ts";

// An 8×8 red PNG, small enough to live in the spec.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mM4oaGBFTEMLQkAgl1GARdiiXUAAAAASUVORK5CYII=",
  "base64",
);

/** A valid EAN-13 in a Swedish range, different on every call. */
function ean13(): string {
  const body = `735099${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  return `${body}${gtinCheckDigit(body)}`;
}

/** SKUs may not contain spaces. */
const uniqueSku = (prefix: string) => unique(prefix).replace(" ", "-");

const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });
const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
const bodyRows = (page: Page) => page.getByRole("table", { name: "Products" }).locator("tbody tr");

test("an operator adds, finds, imports, sorts, edits and deletes products", async ({ page }) => {
  const category = unique("E2E Kategori");
  const name = unique("Lingonsylt");
  const sku = uniqueSku("LS");
  const barcode = ean13();
  await signIn(page, "/products");
  await expect(page.getByRole("heading", { name: "Global Product Database" })).toBeVisible();

  // Add: the button waits for SKU, name and price; a bad barcode is refused with the server's reason.
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  const submit = add.getByRole("button", { name: "Add Product" });
  await expect(submit).toBeDisabled();
  await add.getByLabel("SKU *").fill(sku);
  await expect(submit).toBeDisabled();
  await add.getByLabel("Name *").fill(name);
  await expect(submit).toBeDisabled();
  await add.getByLabel("Price (kr) *").fill("24.90");
  await expect(submit).toBeEnabled();
  await expect(add.getByLabel("VAT Rate (%)")).toHaveValue("25");
  await add.getByLabel("Description").fill("Made by the browser test");
  await add.getByLabel("Category").fill(category);
  await add.getByLabel("Brand").fill("Testbruket");
  await add.getByLabel("VAT Rate (%)").fill("12");
  await add.getByLabel("Weight (g)").fill("450");
  await add.getByLabel("Age limit").selectOption({ label: "18+" });
  await expect(add.getByRole("switch", { name: "Active" })).toBeChecked();
  await add.getByLabel("Barcode").fill(`${barcode.slice(0, -1)}${(Number(barcode.at(-1)) + 1) % 10}`);
  await submit.click();
  await expect(add.getByRole("alert")).toContainText("barcode");
  await add.getByLabel("Barcode").fill(barcode);
  await submit.click();
  await expect(add).toBeHidden();

  // Found by its barcode, shown with the list's price format and its age limit.
  const search = page.getByRole("searchbox", { name: "Search products" });
  await search.fill(barcode);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByText("1 products", { exact: true })).toBeVisible();
  await expect(row(page, name)).toContainText(sku);
  await expect(row(page, name)).toContainText(/24,90\s*kr/);
  await expect(row(page, name)).toContainText("18+");
  await expect(row(page, name)).toContainText("Active");
  await search.fill("no product is called this");
  await expect(page.getByText("No products found")).toBeVisible();
  await search.fill("");

  // Import: the dry run shows the bad line; applying skips it.
  const cheap = unique("Knäckebröd");
  const dear = unique("Kaviar");
  const csv = [
    "sku,name,category,price,barcode",
    `${uniqueSku("KB")},${cheap},${category},9.50,${ean13()}`,
    `${uniqueSku("KV")},${dear},${category},129,`,
    `${uniqueSku("BAD")},Trasig rad,${category},not a price,`,
  ].join("\n");
  await page.getByRole("button", { name: "Import CSV" }).click();
  const importer = page.getByRole("dialog", { name: "Import CSV" });
  await importer
    .getByLabel("CSV file")
    .setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(importer.getByText("2 to create, 0 to update, 1 rejected")).toBeVisible();
  await expect(importer.getByText(/^Line 4: price:/)).toBeVisible();
  await importer.getByRole("button", { name: "Import 2 rows, skip 1 rejected" }).click();
  await expect(importer).toBeHidden();
  await expect(page.getByText("Products imported: 2 created, 0 updated, 1 skipped")).toBeVisible();

  // The category filter lists the new category and narrows to our three.
  await page.getByRole("combobox", { name: "Category" }).selectOption(category);
  await expect(page).toHaveURL(/category=/);
  await expect(page.getByText("3 products", { exact: true })).toBeVisible();
  await expect(row(page, "Trasig rad")).toHaveCount(0);

  // Export CSV takes the current filter: the header and our three rows.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const exported = await readFile(await (await download).path(), "utf8");
  expect(exported.trim().split("\n")).toHaveLength(4);
  for (const product of [name, cheap, dear]) expect(exported).toContain(product);

  // Sort by price: a new header starts ascending, a second click turns it.
  const priceHeader = page.getByRole("columnheader", { name: "Price" });
  await priceHeader.getByRole("button").click();
  await expect(priceHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(bodyRows(page).first()).toContainText(cheap);
  await expect(bodyRows(page).last()).toContainText(dear);
  await priceHeader.getByRole("button").click();
  await expect(priceHeader).toHaveAttribute("aria-sort", "descending");
  await expect(bodyRows(page).first()).toContainText(dear);
  await expect(bodyRows(page).nth(1)).toContainText(name);

  // Grid view is remembered across a reload; the filter stays in the URL.
  await page.getByRole("button", { name: "Grid view" }).click();
  await expect(card(page, name)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Grid view" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByText("3 products", { exact: true })).toBeVisible();
  await expect(card(page, name)).toContainText("24.9 kr");
  await expect(card(page, name).getByRole("img")).toHaveCount(0);

  // Edit: prefilled; a photo uploads and shows in the form, then on the card.
  const renamed = `${name} Extra`;
  await card(page, name)
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  await expect(edit.getByLabel("SKU *")).toHaveValue(sku);
  await expect(edit.getByLabel("Price (kr) *")).toHaveValue("24.9");
  await expect(edit.getByLabel("VAT Rate (%)")).toHaveValue("12");
  await expect(edit.getByLabel("Barcode")).toHaveValue(barcode);
  await expect(edit.getByLabel("Weight (g)")).toHaveValue("450");
  await expect(edit.getByLabel("Age limit")).toHaveValue("18");
  await edit.getByLabel("Name *").fill(renamed);
  await edit.getByLabel("Price (kr) *").fill("27.50");
  await edit
    .getByLabel("Image", { exact: true })
    .setInputFiles({ name: "sylt.png", mimeType: "image/png", buffer: PNG });
  await expect(edit.getByLabel("Image URL")).toHaveValue(/^\/api\/v1\/products\/images\/\w+\.webp$/);
  await expect(edit.getByRole("img", { name: "Image preview" })).toBeVisible();
  await edit.getByRole("button", { name: "Update Product" }).click();
  await expect(edit).toBeHidden();
  const edited = card(page, renamed);
  await expect(edited).toContainText("27.5 kr");
  const photo = edited.getByRole("img", { name: renamed });
  await expect(photo).toHaveAttribute("src", /\/api\/v1\/products\/images\//);
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Delete, cancelling first.
  await card(page, cheap)
    .getByRole("button", { name: `Delete ${cheap}` })
    .click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Are you sure you want to delete this product?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(card(page, cheap)).toBeVisible();
  await card(page, cheap)
    .getByRole("button", { name: `Delete ${cheap}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(card(page, cheap)).toBeHidden();
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
});

test("pages through a category, keeping page and page size in the URL", async ({ page }) => {
  const category = unique("E2E Sidor");
  const lines = Array.from(
    { length: 12 },
    (_, i) => `${uniqueSku(`PG${i}`)},Sida ${String(i + 1).padStart(2, "0")},${category},${i + 1}`,
  );
  await signIn(page, "/products");

  await page.getByRole("button", { name: "Import CSV" }).click();
  const importer = page.getByRole("dialog", { name: "Import CSV" });
  await importer.getByLabel("CSV file").setInputFiles({
    name: "pages.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(["sku,name,category,price", ...lines].join("\n")),
  });
  await expect(importer.getByText("12 to create, 0 to update, 0 rejected")).toBeVisible();
  await importer.getByRole("button", { name: "Import 12 rows" }).click();
  await expect(importer).toBeHidden();

  await page.getByRole("combobox", { name: "Category" }).selectOption(category);
  await expect(page.getByText("12 products", { exact: true })).toBeVisible();
  const pager = page.getByRole("navigation", { name: "Pagination" });
  await expect(pager).toContainText("Page 1 of 1");

  await pager.getByLabel("Per page").selectOption("10");
  await expect(page).toHaveURL(/size=10/);
  await expect(pager).toContainText("Page 1 of 2");
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(pager.getByRole("button", { name: "Previous" })).toBeDisabled();

  await pager.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pager).toContainText("Page 2 of 2");
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(row(page, "Sida 12")).toBeVisible();
  await expect(pager.getByRole("button", { name: "Next" })).toBeDisabled();

  // The URL alone brings the same page back.
  await page.reload();
  await expect(pager).toContainText("Page 2 of 2");
  await expect(row(page, "Sida 11")).toBeVisible();
  await pager.getByRole("button", { name: "Previous" }).click();
  await expect(pager).toContainText("Page 1 of 2");
  await expect(row(page, "Sida 01")).toBeVisible();
});
