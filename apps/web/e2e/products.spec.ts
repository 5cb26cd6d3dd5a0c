import { readFile } from "node:fs/promises";
import { gtinCheckDigit } from "@glide/contracts";
import type { Page } from "@playwright/test";
import { expect, isPhone, signIn, test, unique } from "./fixtures.ts";

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

const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
/** A product in the list view: a table row on a desktop, a card on a phone. */
const row = (page: Page, name: string) =>
  isPhone(page) ? card(page, name) : page.getByRole("row").filter({ hasText: name });
const bodyRows = (page: Page) =>
  isPhone(page)
    ? page.getByRole("list", { name: "Products" }).getByRole("listitem")
    : page.getByRole("table", { name: "Products" }).locator("tbody tr");

/** Price order: the column header on a desktop, the Sort by select on a phone. */
async function sortByPrice(page: Page, order: "ascending" | "descending") {
  if (isPhone(page)) {
    const label = order === "ascending" ? "Price, lowest first" : "Price, highest first";
    await page.getByLabel("Sort by").selectOption({ label });
    return;
  }
  const priceHeader = page.getByRole("columnheader", { name: "Price" });
  await priceHeader.getByRole("button").click();
  await expect(priceHeader).toHaveAttribute("aria-sort", order);
}

test("an operator adds, finds, imports, sorts, edits and deletes products", async ({ page }) => {
  const category = unique("E2E Kategori");
  const name = unique("Lingonsylt");
  const sku = uniqueSku("LS");
  const barcode = ean13();
  await signIn(page, "/products");
  await expect(page.getByRole("heading", { name: "Global Product Database" })).toBeVisible();
  await expect(page).toHaveTitle("Products · Glide");

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
  await expect(add.getByLabel("VAT Category")).toHaveValue("standard");
  await add.getByLabel("Description").fill("Made by the browser test");
  await add.getByLabel("Category", { exact: true }).fill(category);
  await add.getByLabel("Brand").fill("Testbruket");
  await add.getByLabel("VAT Category").selectOption({ label: "Food (livsmedel, folköl)" });
  await add.getByLabel("Weight (g)").fill("450");
  await add.getByLabel("Age limit").selectOption({ label: "18+" });
  await expect(add.getByRole("switch", { name: "Active" })).toBeChecked();
  await add.getByLabel("Barcode").fill(`${barcode.slice(0, -1)}${(Number(barcode.at(-1)) + 1) % 10}`);
  await submit.click();
  // The reason sits beside the Barcode field, which takes focus; it is said once, with no banner or toast.
  const barcodeInput = add.getByLabel("Barcode");
  await expect(barcodeInput).toHaveAttribute("aria-invalid", "true");
  await expect(barcodeInput).toBeFocused();
  await expect(barcodeInput).toHaveAccessibleDescription(/check digit/i);
  await expect(add.getByRole("alert")).toHaveCount(0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await add.getByLabel("Barcode").fill(barcode);
  await submit.click();
  await expect(add).toBeHidden();

  // Found by its barcode, shown with the list's price format and its age limit.
  const search = page.getByRole("searchbox", { name: "Search products" });
  await search.fill(barcode);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
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
  await sortByPrice(page, "ascending");
  await expect(bodyRows(page).first()).toContainText(cheap);
  await expect(bodyRows(page).last()).toContainText(dear);
  await sortByPrice(page, "descending");
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
  await expect(edit.getByLabel("VAT Category")).toHaveValue("food");
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

test("a name over the limit is held to it, and the server's words say it is too long", async ({ page }) => {
  await signIn(page, "/products");
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  const name = add.getByLabel("Name *");
  await expect(name).toHaveAttribute("maxlength", "200");
  await expect(add.getByLabel("SKU *")).toHaveAttribute("maxlength", "64");
  await name.fill("x".repeat(5000));
  await expect(name).toHaveValue("x".repeat(200));

  // A client without the limit (here: the attribute taken away) gets the real reason beside the field.
  await name.evaluate((input) => input.removeAttribute("maxlength"));
  await name.fill("x".repeat(5000));
  await add.getByLabel("SKU *").fill(uniqueSku("LONG"));
  await add.getByLabel("Price (kr) *").fill("10");
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(name).toHaveAccessibleDescription("Name must be at most 200 characters; shorten it");
  await expect(name).toBeFocused();
  await expect(page.getByText("Name is required")).toHaveCount(0);
  await expect(add.getByRole("alert")).toHaveCount(0);
});

test("search waits for typing to pause: one request, not one per key", async ({ page }) => {
  await signIn(page, "/products");
  await expect(page.getByText(/^\d+ products?$/)).toBeVisible();
  const searches: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const search = url.searchParams.get("search");
    if (url.pathname === "/api/v1/products/" && search !== null) searches.push(search);
  });
  await page.getByRole("searchbox", { name: "Search products" }).pressSequentially("lingonsylt", { delay: 40 });
  await expect(page).toHaveURL(/search=lingonsylt/);
  await expect.poll(() => searches).toEqual(["lingonsylt"]);
  await expect(page.getByText(/^\d+ products?$/)).toBeVisible();
  expect(searches).toEqual(["lingonsylt"]);
});

test("the list shows every product's price, status and actions without sideways scrolling", async ({ page }) => {
  const name = unique("Smalskärm");
  const sku = uniqueSku("SM");
  await signIn(page, "/products");
  const created = await page.request.post("/api/v1/products/", { data: { sku, name, price: 12.5 } });
  expect(created.status()).toBe(201);
  await page.getByRole("searchbox", { name: "Search products" }).fill(sku);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "true");

  const item = row(page, name);
  await expect(item).toContainText(sku);
  await expect(item).toContainText(/12,50\s*kr/);
  await expect(item).toContainText("Active");
  // The actions are within the screen's width, not behind a sideways scroll.
  const width = page.viewportSize()?.width ?? 0;
  for (const action of [`Edit ${name}`, `Delete ${name}`]) {
    const box = await item.getByRole("button", { name: action }).boundingBox();
    expect(box && box.x + box.width, action).toBeLessThanOrEqual(width);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Phones get cards; desktops keep the table.
  await expect(page.getByRole("table", { name: "Products" })).toHaveCount(isPhone(page) ? 0 : 1);

  // Focus goes back to the Edit button when the dialog closes.
  const edit = item.getByRole("button", { name: `Edit ${name}` });
  await edit.click();
  await expect(page.getByRole("dialog", { name: "Edit Product" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(edit).toBeFocused();
});

test("a taken SKU is said beside the SKU field, with whose it is", async ({ page }) => {
  const sku = uniqueSku("TAKEN");
  const owner = unique("Ägare");
  await signIn(page, "/products");
  expect((await page.request.post("/api/v1/products/", { data: { sku, name: owner, price: 5 } })).status()).toBe(201);
  await page.getByRole("button", { name: "Add Product" }).click();
  const add = page.getByRole("dialog", { name: "Add Product" });
  await add.getByLabel("SKU *").fill(sku);
  await add.getByLabel("Name *").fill(unique("Dubblett"));
  await add.getByLabel("Price (kr) *").fill("5");
  await add.getByRole("button", { name: "Add Product" }).click();
  const skuInput = add.getByLabel("SKU *");
  await expect(skuInput).toHaveAttribute("aria-invalid", "true");
  await expect(skuInput).toHaveAccessibleDescription(new RegExp(`already used by "${owner}"`));
  await expect(skuInput).toBeFocused();
  await expect(add.getByRole("alert")).toHaveCount(0);
});
