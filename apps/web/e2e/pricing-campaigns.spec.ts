import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createStore, expect, isPhone, openNav, signIn, type TestStore, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { serverDay } from "./support/pricing.ts";
import { toast } from "./support/settings.ts";
import { createProduct, type TestProduct } from "./support/shopping.ts";

/** A campaign's line in the list: a table row on a wide screen, a card on a phone. */
const line = (page: Page, text: string): Locator =>
  page
    .getByRole(isPhone(page) ? "list" : "table", { name: "Campaigns" })
    .getByRole(isPhone(page) ? "listitem" : "row")
    .filter({ hasText: text });

/** A store and a product at 30 kr of this test's own. */
async function ownGoods(page: Page): Promise<{ store: TestStore; product: TestProduct }> {
  const store = await createStore(page.request);
  const product = await createProduct(page.request, { price: 30, name: unique("Kampanjkaffe") });
  return { store, product };
}

/** A campaign made through the API by the test admin. */
async function apiCampaign(request: APIRequestContext, body: Record<string, unknown>): Promise<void> {
  const made = await request.post("/api/v1/campaigns", { data: body });
  expect(made.status(), await made.text()).toBe(201);
}

async function openCampaigns(page: Page, search: string) {
  await page.goto(`/pricing?tab=campaigns&search=${encodeURIComponent(search)}`);
  await expect(page.getByRole("tab", { name: "Campaigns" })).toHaveAttribute("aria-selected", "true");
}

test("a platform admin adds, edits and deletes a campaign; a bad range and a price too high are refused on their fields", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { store, product } = await ownGoods(page);
  const [today, inAWeek] = [await serverDay(page), await serverDay(page, 6)];
  await openNav(page);
  await page.getByRole("link", { name: "Pricing", exact: true }).click();
  await page.getByRole("tab", { name: "Campaigns" }).click();
  await expect(page).toHaveURL(/[?&]tab=campaigns\b/);

  await page.getByRole("button", { name: "New campaign" }).click();
  const add = page.getByRole("dialog", { name: "New campaign" });
  await expect(add.getByLabel("Store")).toHaveValue("");
  await add.getByRole("combobox", { name: "Product" }).fill(product.name);
  await add.getByRole("option", { name: new RegExp(product.name) }).click();
  await expect(add).toContainText("ordinary price 30,00");
  await add.getByLabel("Store").selectOption({ label: store.name });
  await add.getByLabel("Campaign price (kr)").fill("30");
  await add.getByLabel("From", { exact: true }).fill(today);
  await add.getByLabel("To", { exact: true }).fill(inAWeek);
  await add.getByRole("button", { name: "Add campaign" }).click();
  // The price must be below the ordinary one: the server's reason beside the price, which takes focus.
  const price = add.getByLabel("Campaign price (kr)");
  await expect(price).toHaveAttribute("aria-invalid", "true");
  await expect(price).toBeFocused();
  await expect(price).toHaveAccessibleDescription("a campaign price must be below the ordinary price of 30.00 kr");
  await price.fill("24,90");
  await add.getByRole("button", { name: "Add campaign" }).click();
  await expect(add).toBeHidden();
  await expect(toast(page, "Campaign added")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search campaigns" }).fill(product.name);
  await expect(page).toHaveURL(/[?&]search=/);
  const row = line(page, product.name);
  await expect(row).toContainText(store.name);
  await expect(row).toContainText("24,90");
  await expect(row).toContainText("30,00");
  await expect(row).toContainText(today);
  await expect(row).toContainText("Active");

  // The status filter stays in the address, so a reload shows the same list.
  await page.getByRole("combobox", { name: "Status" }).selectOption("upcoming");
  await expect(page).toHaveURL(/[?&]status=upcoming\b/);
  await expect(page.getByText("No campaigns match these filters")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("upcoming");
  await page.getByRole("combobox", { name: "Status" }).selectOption("active");
  await expect(row).toContainText("Active");

  // Edit: a last day before the first is refused beside To, which takes focus; no banner repeats it.
  await page.getByRole("button", { name: `Edit ${product.name} in ${store.name} from ${today}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit campaign" });
  await expect(edit.getByLabel("Campaign price (kr)")).toHaveValue("24.90");
  const to = edit.getByLabel("To", { exact: true });
  await to.fill(await serverDay(page, -1));
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(to).toHaveAttribute("aria-invalid", "true");
  await expect(to).toBeFocused();
  await expect(to).toHaveAccessibleDescription("ends_on cannot be before starts_on");
  await expect(edit.getByRole("alert")).toHaveCount(0);
  await to.fill(inAWeek);
  await edit.getByLabel("Campaign price (kr)").fill("22.50");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("22,50");

  // Delete, after a confirmation that says which campaign goes.
  await page.getByRole("button", { name: `Delete ${product.name} in ${store.name} from ${today}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this campaign?" });
  await expect(confirm).toContainText(`${product.name} at 22,50`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Campaign deleted")).toBeVisible();
  await expect(row).toHaveCount(0);
});

test("a platform admin makes a members-only campaign with the keyboard, sees it marked Members, and edits it off", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { store, product } = await ownGoods(page);
  const [today, inAWeek] = [await serverDay(page), await serverDay(page, 6)];
  // A campaign for everyone beside it: only the members-only one carries the mark.
  await apiCampaign(page.request, {
    product_id: product.id,
    store_id: null,
    price: 27,
    starts_on: today,
    ends_on: inAWeek,
  });
  await openCampaigns(page, product.name);

  await page.getByRole("button", { name: "New campaign" }).click();
  const add = page.getByRole("dialog", { name: "New campaign" });
  const members = add.getByRole("checkbox", { name: "Members only" });
  await expect(members).not.toBeChecked();
  await expect(members).toHaveAccessibleDescription(/other shoppers see it as "Medlemspris"/);
  await add.getByRole("combobox", { name: "Product" }).fill(product.name);
  await add.getByRole("option", { name: new RegExp(product.name) }).click();
  await add.getByLabel("Store").selectOption({ label: store.name });
  await add.getByLabel("Campaign price (kr)").fill("24,90");
  await add.getByLabel("From", { exact: true }).fill(today);
  await add.getByLabel("To", { exact: true }).fill(inAWeek);
  await members.focus();
  await page.keyboard.press("Space");
  await expect(members).toBeChecked();
  await add.getByRole("button", { name: "Add campaign" }).click();
  await expect(add).toBeHidden();
  await expect(toast(page, "Campaign added")).toBeVisible();

  const own = line(page, "24,90");
  const everyone = line(page, "27,00");
  await expect(own.getByText("Members", { exact: true })).toBeVisible();
  await expect(everyone).toContainText("All stores");
  await expect(everyone.getByText("Members", { exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: `Edit ${product.name} in ${store.name} from ${today}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit campaign" });
  await expect(edit.getByRole("checkbox", { name: "Members only" })).toBeChecked();
  await edit.getByText("Members only", { exact: true }).click();
  await expect(edit.getByRole("checkbox", { name: "Members only" })).not.toBeChecked();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, "Campaign updated")).toBeVisible();
  await expect(own.getByText("Members", { exact: true })).toHaveCount(0);
  await expect(own).toContainText(store.name);
  // The list as the server now has it, after a reload.
  await page.reload();
  await expect(line(page, "24,90")).toContainText(store.name);
  await expect(line(page, "24,90").getByText("Members", { exact: true })).toHaveCount(0);
});

test("a store admin changes their own store's campaigns, reads the chain-wide ones, and cannot add one for every store", async ({
  page,
}) => {
  await signIn(page);
  const { store, product } = await ownGoods(page);
  const [from, to] = [await serverDay(page, 2), await serverDay(page, 9)];
  const days = { product_id: product.id, starts_on: from, ends_on: to };
  await apiCampaign(page.request, { ...days, store_id: store.id, price: 25 });
  await apiCampaign(page.request, { ...days, store_id: null, price: 27 });
  // The console decides what to offer from /me; the server's 403 for other stores is tested on the server.
  const me = await (await page.request.get("/api/v1/admin/me")).json();
  await page.route("**/api/v1/admin/me", (route) =>
    route.fulfill({ json: { ...me, role: "store_admin", store_ids: [store.id] } }),
  );
  await openCampaigns(page, product.name);

  const own = line(page, "25,00");
  const chain = line(page, "All stores");
  await expect(own).toContainText(store.name);
  await expect(own).toContainText("Upcoming");
  await expect(chain).toContainText("27,00");
  await expect(page.getByRole("button", { name: `Edit ${product.name} in ${store.name} from ${from}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Edit ${product.name} in All stores from ${from}` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `Delete ${product.name} in All stores from ${from}` })).toHaveCount(0);

  await page.getByRole("button", { name: "New campaign" }).click();
  const add = page.getByRole("dialog", { name: "New campaign" });
  await expect(add.getByLabel("Store")).not.toHaveValue("");
  await expect(add.getByLabel("Store").getByRole("option", { name: "All stores" })).toHaveCount(0);
});

test("the Campaigns tab and its dialog pass the accessibility checks in both themes", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { store, product } = await ownGoods(page);
  await apiCampaign(page.request, {
    product_id: product.id,
    store_id: store.id,
    price: 19.9,
    starts_on: await serverDay(page),
    ends_on: await serverDay(page, 3),
  });
  await openCampaigns(page, product.name);
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      if (isPhone(page)) await page.keyboard.press("Escape");
    }
    await expect(line(page, product.name)).toContainText("Active");
    await expectAccessible(page, `the campaigns, ${theme}`);
    await page.getByRole("button", { name: "New campaign" }).click();
    const dialog = page.getByRole("dialog", { name: "New campaign" });
    await expect(dialog.getByRole("combobox", { name: "Product" })).toBeVisible();
    await expectAccessible(page, `the new campaign dialog, ${theme}`);
    // With the problems shown: the messages beside their fields keep their contrast and names.
    await dialog.getByRole("button", { name: "Add campaign" }).click();
    await expect(dialog.getByRole("combobox", { name: "Product" })).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Campaign price (kr)")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, `the new campaign dialog with problems, ${theme}`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
});
