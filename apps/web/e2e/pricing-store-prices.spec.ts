import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createStore, expect, isPhone, openNav, signIn, type TestStore, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

/**
 * The Store prices tab of Pricing: a store's own prices over the catalogue's.
 * Each test makes a store and products of its own, so the desktop and phone
 * runs, which share one server, never meet.
 */

type TestProduct = { id: string; sku: string; name: string };

async function createProduct(request: APIRequestContext, prefix: string, price: number): Promise<TestProduct> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();
  const sku = `${prefix}-${tag}`;
  const name = `${prefix === "MJOLK" ? "Mjölk" : "Bröd"} ${tag}`;
  const made = await request.post("/api/v1/products/", { data: { sku, name, price } });
  expect(made.status(), await made.text()).toBe(201);
  return { id: ((await made.json()) as { id: string }).id, sku, name };
}

/** An override on the list: a table row on a wide screen, a card on a phone. */
const override = (page: Page, sku: string): Locator =>
  page.getByRole(isPhone(page) ? "listitem" : "row").filter({ hasText: sku });

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function setup(page: Page): Promise<{ store: TestStore; milk: TestProduct; bread: TestProduct }> {
  const store = await createStore(page.request);
  const milk = await createProduct(page.request, "MJOLK", 12.9);
  const bread = await createProduct(page.request, "BROD", 29);
  return { store, milk, bread };
}

const tabUrl = (store: TestStore) => `/pricing?tab=store-prices&store=${store.id}`;

test("an admin adds, edits and removes a store's price; the store stays in the URL", async ({ page }) => {
  test.setTimeout(60_000);
  const { store, milk } = await setup(page);
  await signIn(page, "/pricing");
  await page.getByRole("tab", { name: "Store prices" }).click();
  await expect(page).toHaveURL(/[?&]tab=store-prices\b/);
  await page.getByLabel("Store", { exact: true }).selectOption(store.id);
  await expect(page).toHaveURL(new RegExp(`[?&]store=${store.id}\\b`));
  await expect(page.getByText("No prices of its own in this store yet")).toBeVisible();

  // Nothing picked and no price: each problem beside its own field, nothing sent.
  await page.getByRole("button", { name: "Add store price" }).click();
  const add = page.getByRole("dialog", { name: "Add store price" });
  await add.getByRole("button", { name: "Add store price" }).click();
  const picker = add.getByRole("combobox", { name: "Product" });
  await expect(picker).toHaveAccessibleDescription("Pick a product by its name or SKU");
  await expect(picker).toBeFocused();
  const price = add.getByLabel("Store price (kr)");
  await expect(price).toHaveAccessibleDescription("Enter the store's price in kronor");

  // Picked by SKU; a third decimal is the server's to refuse, beside the price, the dialog still open.
  await picker.fill(milk.sku);
  await add.getByRole("option", { name: new RegExp(milk.name) }).click();
  await expect(add).toContainText(milk.name);
  await expect(add).toContainText(/12,90\s*kr/);
  await price.fill("11.505");
  await add.getByRole("button", { name: "Add store price" }).click();
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await expect(price).toHaveAccessibleDescription(/Price allows at most two decimals/);
  await price.fill("11,50");
  await add.getByRole("button", { name: "Add store price" }).click();
  await expect(add).toBeHidden();
  await expect(toast(page, `Store price of ${milk.name} saved`)).toBeVisible();
  const row = override(page, milk.sku);
  await expect(row).toContainText(milk.name);
  await expect(row).toContainText(/12,90\s*kr/);
  await expect(row).toContainText(/11,50\s*kr/);

  // A reload (or a shared link) shows the same store.
  await page.reload();
  await expect(page.getByLabel("Store", { exact: true })).toHaveValue(store.id);
  await expect(override(page, milk.sku)).toContainText(/11,50\s*kr/);

  await page.getByRole("button", { name: `Edit the price of ${milk.name}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit store price" });
  await expect(edit.getByLabel("Store price (kr)")).toHaveValue("11.5");
  await edit.getByLabel("Store price (kr)").fill("0");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(override(page, milk.sku)).toContainText(/0,00\s*kr/);

  await page.getByRole("button", { name: `Remove the price of ${milk.name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove this store price?" });
  await expect(confirm).toContainText(`${milk.name} will cost the catalogue's price in ${store.name}`);
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, `Store price of ${milk.name} removed`)).toBeVisible();
  await expect(override(page, milk.sku)).toHaveCount(0);
  await expect(page.getByText("No prices of its own in this store yet")).toBeVisible();
});

test("a CSV with a bad row imports nothing and says which line; the fixed file imports, and exports back", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { store, milk, bread } = await setup(page);
  await signIn(page, tabUrl(store));
  const csv = (text: string) => ({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

  await page.getByRole("button", { name: "Import CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import store prices" });
  const file = dialog.getByLabel("CSV file");
  await file.setInputFiles(csv(`sku,price\n${milk.sku},11.50\nNO-SUCH-SKU,5\n${bread.sku},-1\n`));
  await expect(dialog.getByRole("status")).toHaveText("1 to set, 0 to remove, 0 unchanged, 2 rejected");
  await expect(dialog).toContainText("Line 3: sku: No product has SKU NO-SUCH-SKU");
  await expect(dialog).toContainText("Line 4: price: Price cannot be negative");
  await expect(dialog.getByRole("button", { name: /^Import / })).toHaveCount(0);

  await file.setInputFiles(csv(`sku;price\n${milk.sku};11,50\n${bread.sku};25\n`));
  await expect(dialog.getByRole("status")).toHaveText("2 to set, 0 to remove, 0 unchanged, 0 rejected");
  await dialog.getByRole("button", { name: "Import 2 changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Store prices imported: 2 set, 0 removed, 0 unchanged")).toBeVisible();
  await expect(override(page, milk.sku)).toContainText(/11,50\s*kr/);
  await expect(override(page, bread.sku)).toContainText(/25,00\s*kr/);

  // The search narrows the list by name or SKU.
  await page.getByRole("searchbox", { name: "Search store prices" }).fill(bread.sku);
  await expect(override(page, milk.sku)).toHaveCount(0);
  await expect(override(page, bread.sku)).toBeVisible();

  // An empty price removes the store's own.
  await page.getByRole("button", { name: "Import CSV" }).click();
  await dialog.getByLabel("CSV file").setInputFiles(csv(`sku,price\n${bread.sku},\n`));
  await expect(dialog.getByRole("status")).toHaveText("0 to set, 1 to remove, 0 unchanged, 0 rejected");
  await dialog.getByRole("button", { name: "Import 1 change" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("No store price matches the search")).toBeVisible();

  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  expect(href).toBe(`/api/v1/stores/${store.id}/prices/export`);
  const exported = await page.request.get(href!);
  expect(await exported.text()).toBe(`\uFEFFsku,name,catalogue_price,price\n${milk.sku},${milk.name},12.90,11.50\n`);
});

test("the Store prices tab and its dialogs pass the accessibility checks in both themes", async ({ page }) => {
  test.setTimeout(90_000);
  const { store, milk } = await setup(page);
  const set = await page.request.put(`/api/v1/stores/${store.id}/prices/${milk.id}`, { data: { price: 11.5 } });
  expect(set.ok(), await set.text()).toBe(true);
  await signIn(page, tabUrl(store));
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      if (isPhone(page)) await page.keyboard.press("Escape");
    }
    await expect(override(page, milk.sku)).toContainText(/11,50\s*kr/);
    await expectAccessible(page, `the store prices, ${theme}`);

    await page.getByRole("button", { name: "Add store price" }).click();
    const add = page.getByRole("dialog", { name: "Add store price" });
    await add.getByRole("button", { name: "Add store price" }).click();
    await expect(add.getByLabel("Store price (kr)")).toHaveAttribute("aria-invalid", "true");
    await add.getByRole("combobox", { name: "Product" }).fill(milk.sku);
    await expect(add.getByRole("option", { name: new RegExp(milk.name) })).toBeVisible();
    await expectAccessible(page, `the add store price dialog with problems, ${theme}`);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(add).toBeHidden();

    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import store prices" });
    await dialog
      .getByLabel("CSV file")
      .setInputFiles({ name: "p.csv", mimeType: "text/csv", buffer: Buffer.from("sku,price\nNO-SUCH-SKU,5\n") });
    await expect(dialog).toContainText("Line 2: sku: No product has SKU NO-SUCH-SKU");
    await expectAccessible(page, `the import dialog with a rejected line, ${theme}`);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
  }
});
