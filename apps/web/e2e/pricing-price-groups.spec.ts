import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createStore, expect, isPhone, openNav, signIn, type TestStore, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

/**
 * The Price groups tab of Pricing: stores that share prices. Each test makes
 * its own groups, stores and products, so the desktop and phone runs, which
 * share one server, never meet.
 */

type TestProduct = { id: string; sku: string; name: string };

async function createProduct(request: APIRequestContext, price: number): Promise<TestProduct> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();
  const sku = `PG-${tag}`;
  const name = `Kaffe ${tag}`;
  const made = await request.post("/api/v1/products/", { data: { sku, name, price } });
  expect(made.status(), await made.text()).toBe(201);
  return { id: ((await made.json()) as { id: string }).id, sku, name };
}

async function createGroup(request: APIRequestContext, name: string): Promise<string> {
  const made = await request.post("/api/v1/price-groups", { data: { name } });
  expect(made.status(), await made.text()).toBe(201);
  return ((await made.json()) as { id: string }).id;
}

/** A price on the list: a table row on a wide screen, a card on a phone. */
const priceRow = (page: Page, sku: string): Locator =>
  page.getByRole(isPhone(page) ? "listitem" : "row").filter({ hasText: sku });

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const groupSelect = (page: Page) => page.getByLabel("Price group", { exact: true });

test("an admin makes a group, puts a store in it, prices a product, and deletes it; the group stays in the URL", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const store: TestStore = await createStore(page.request);
  const coffee = await createProduct(page.request, 64.9);
  const taken = unique("Upptagen");
  await createGroup(page.request, taken);
  const name = unique("Syd");
  await signIn(page, "/pricing");
  await page.getByRole("tab", { name: "Price groups" }).click();
  await expect(page).toHaveURL(/[?&]tab=price-groups\b/);

  // A blank name is refused beside the field; a taken one by the server, beside it too.
  await page.getByRole("button", { name: "New price group" }).click();
  const create = page.getByRole("dialog", { name: "New price group" });
  const nameField = create.getByLabel("Name");
  await create.getByRole("button", { name: "Create price group" }).click();
  await expect(nameField).toHaveAccessibleDescription("Enter a name");
  await nameField.fill(taken.toLowerCase());
  await create.getByRole("button", { name: "Create price group" }).click();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toHaveAccessibleDescription(/already exists/);
  await nameField.fill(name);
  await create.getByRole("button", { name: "Create price group" }).click();
  await expect(create).toBeHidden();
  await expect(toast(page, `Price group ${name} saved`)).toBeVisible();
  const groupId = await groupSelect(page).inputValue();
  await expect(page).toHaveURL(new RegExp(`[?&]group=${groupId}\\b`));
  await expect(page.getByText("No stores in this group yet.")).toBeVisible();

  // The store goes in; the group's price of the product is set through the shared dialog.
  await page.getByLabel("Add a store").selectOption(store.id);
  await page.getByRole("button", { name: "Add to group" }).click();
  await expect(toast(page, `${store.name} is in ${name}`)).toBeVisible();
  const members = page.getByRole("list", { name: `Stores in ${name}` });
  await expect(members).toContainText(store.name);

  await page.getByRole("button", { name: "Add group price" }).click();
  const add = page.getByRole("dialog", { name: "Add group price" });
  await add.getByRole("combobox", { name: "Product" }).fill(coffee.sku);
  await add.getByRole("option", { name: new RegExp(coffee.name) }).click();
  await add.getByLabel("Group price (kr)").fill("59,50");
  await add.getByRole("button", { name: "Add group price" }).click();
  await expect(add).toBeHidden();
  await expect(toast(page, `Group price of ${coffee.name} saved`)).toBeVisible();
  await expect(priceRow(page, coffee.sku)).toContainText(/59,50\s*kr/);
  await expect(priceRow(page, coffee.sku)).toContainText(/64,90\s*kr/);

  // A reload (or a shared link) shows the same group.
  await page.reload();
  await expect(groupSelect(page)).toHaveValue(groupId);
  await expect(priceRow(page, coffee.sku)).toContainText(/59,50\s*kr/);

  await page.getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename price group" });
  await rename.getByLabel("Name").fill(`${name} 2`);
  await rename.getByRole("button", { name: "Save Changes" }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByRole("heading", { name: `Prices of ${name} 2` })).toBeVisible();

  await page.getByRole("button", { name: `Take ${store.name} out of ${name} 2` }).click();
  await expect(toast(page, `${store.name} is no longer in ${name} 2`)).toBeVisible();
  await expect(page.getByText("No stores in this group yet.")).toBeVisible();

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this price group?" });
  await expect(confirm).toContainText("its 1 price will be deleted");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, `Price group ${name} 2 deleted`)).toBeVisible();
  await expect(groupSelect(page).locator("option", { hasText: `${name} 2` })).toHaveCount(0);
});

test("a group's prices import from CSV all or nothing, and export back", async ({ page }) => {
  test.setTimeout(60_000);
  await createStore(page.request); // signs the request in
  const coffee = await createProduct(page.request, 64.9);
  const name = unique("Norr");
  const groupId = await createGroup(page.request, name);
  await signIn(page, `/pricing?tab=price-groups&group=${groupId}`);
  const csv = (text: string) => ({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

  await page.getByRole("button", { name: "Import CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import group prices" });
  await dialog.getByLabel("CSV file").setInputFiles(csv(`sku,price\n${coffee.sku},55\nNO-SUCH-SKU,5\n`));
  await expect(dialog.getByRole("status")).toHaveText("1 to set, 0 to remove, 0 unchanged, 1 rejected");
  await expect(dialog).toContainText("Line 3: sku: No product has SKU NO-SUCH-SKU");
  await expect(dialog.getByRole("button", { name: /^Import / })).toHaveCount(0);
  await dialog.getByLabel("CSV file").setInputFiles(csv(`sku;price\n${coffee.sku};55,50\n`));
  await dialog.getByRole("button", { name: "Import 1 change" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Group prices imported: 1 set, 0 removed, 0 unchanged")).toBeVisible();
  await expect(priceRow(page, coffee.sku)).toContainText(/55,50\s*kr/);

  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  expect(href).toBe(`/api/v1/price-groups/${groupId}/prices/export`);
  const exported = await page.request.get(href!);
  expect(await exported.text()).toBe(
    `\uFEFFsku,name,catalogue_price,price\n${coffee.sku},${coffee.name},64.90,55.50\n`,
  );
});

test("the Price groups tab and its dialogs pass the accessibility checks in both themes", async ({ page }) => {
  test.setTimeout(90_000);
  const store = await createStore(page.request);
  const coffee = await createProduct(page.request, 64.9);
  const groupId = await createGroup(page.request, unique("Väst"));
  const put = await page.request.put(`/api/v1/stores/${store.id}/price-group`, { data: { price_group_id: groupId } });
  expect(put.ok(), await put.text()).toBe(true);
  const set = await page.request.put(`/api/v1/price-groups/${groupId}/prices/${coffee.id}`, { data: { price: 50 } });
  expect(set.ok(), await set.text()).toBe(true);
  await signIn(page, `/pricing?tab=price-groups&group=${groupId}`);
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      if (isPhone(page)) await page.keyboard.press("Escape");
    }
    await expect(priceRow(page, coffee.sku)).toContainText(/50,00\s*kr/);
    await expectAccessible(page, `the price groups, ${theme}`);

    await page.getByRole("button", { name: "New price group" }).click();
    const create = page.getByRole("dialog", { name: "New price group" });
    await create.getByRole("button", { name: "Create price group" }).click();
    await expect(create.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, `the new price group dialog with a problem, ${theme}`);
    await page.keyboard.press("Escape");
    await expect(create).toBeHidden();
  }
});
