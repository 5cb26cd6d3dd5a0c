import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createStore, expect, isPhone, openNav, signIn, type TestStore, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { serverDay } from "./support/pricing.ts";
import { toast } from "./support/settings.ts";
import { createProduct, type TestProduct } from "./support/shopping.ts";

/** An offer's line in the list: a table row on a wide screen, a card on a phone. */
const line = (page: Page, text: string): Locator =>
  page
    .getByRole(isPhone(page) ? "list" : "table", { name: "Offers" })
    .getByRole(isPhone(page) ? "listitem" : "row")
    .filter({ hasText: text });

/** A store and two products (coffee at 25 kr, tea at 20 kr) of this test's own. */
async function ownGoods(page: Page): Promise<{ store: TestStore; coffee: TestProduct; tea: TestProduct }> {
  const store = await createStore(page.request);
  const coffee = await createProduct(page.request, { price: 25, name: unique("Erbjudandekaffe") });
  const tea = await createProduct(page.request, { price: 20, name: unique("Erbjudandete") });
  return { store, coffee, tea };
}

/** An offer made through the API by the test admin. */
async function apiOffer(request: APIRequestContext, body: Record<string, unknown>): Promise<void> {
  const made = await request.post("/api/v1/offers", { data: body });
  expect(made.status(), await made.text()).toBe(201);
}

async function openOffers(page: Page, search: string) {
  await page.goto(`/pricing?tab=offers&search=${encodeURIComponent(search)}`);
  await expect(page.getByRole("tab", { name: "Offers" })).toHaveAttribute("aria-selected", "true");
}

/** Picks a product in the dialog's product picker; it joins the chips. */
async function pick(dialog: Locator, product: TestProduct) {
  await dialog.getByRole("combobox", { name: "Products" }).fill(product.name);
  await dialog.getByRole("option", { name: new RegExp(product.name) }).click();
  await expect(dialog.getByRole("list", { name: "Chosen products" })).toContainText(product.name);
}

test("a platform admin adds a mix-and-match 3 för 2 and a 2 för 35 kr, sees a refused price on its field, edits and deletes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const { store, coffee, tea } = await ownGoods(page);
  const [today, inAWeek] = [await serverDay(page), await serverDay(page, 6)];
  const label = unique("3 för 2");
  const fixed = unique("2 för 35");
  await openNav(page);
  await page.getByRole("link", { name: "Pricing", exact: true }).click();
  await page.getByRole("tab", { name: "Offers" }).click();
  await expect(page).toHaveURL(/[?&]tab=offers\b/);

  // 3 för 2 over both products, mixed as the shopper likes, at most twice a visit.
  await page.getByRole("button", { name: "New offer" }).click();
  const add = page.getByRole("dialog", { name: "New offer" });
  await expect(add.getByLabel("Store")).toHaveValue("");
  await expect(add.getByRole("radio", { name: /Pay for all but one/ })).toBeChecked();
  await expect(add.getByLabel("Price for the units (kr)")).toHaveCount(0);
  await add.getByLabel("Label").fill(label);
  await pick(add, coffee);
  await pick(add, tea);
  await add.getByLabel("Store").selectOption({ label: store.name });
  await add.getByLabel("Limit per visit").fill("2");
  await add.getByLabel("From", { exact: true }).fill(today);
  await add.getByLabel("To", { exact: true }).fill(inAWeek);
  await add.getByRole("button", { name: "Add offer" }).click();
  await expect(add).toBeHidden();
  await expect(toast(page, "Offer added")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search offers" }).fill(label);
  await expect(page).toHaveURL(/[?&]search=/);
  const mixed = line(page, label);
  await expect(mixed).toContainText(`${coffee.name}, ${tea.name}`);
  await expect(mixed).toContainText(store.name);
  await expect(mixed).toContainText("3 för 2");
  await expect(mixed).toContainText("2 per visit");
  await expect(mixed).toContainText("Active");

  // 2 för 40 kr is what two teas cost already: refused beside the price, which takes focus.
  await page.getByRole("button", { name: "New offer" }).click();
  await add.getByLabel("Label").fill(fixed);
  await add.getByRole("radio", { name: /Fixed price/ }).check();
  await add.getByLabel("Buy (units)").fill("2");
  await add.getByLabel("Price for the units (kr)").fill("40");
  await pick(add, coffee);
  await pick(add, tea);
  // A product taken out again leaves the chips.
  await add.getByRole("button", { name: `Remove ${coffee.name}` }).click();
  await expect(add.getByRole("list", { name: "Chosen products" })).not.toContainText(coffee.name);
  await add.getByLabel("Store").selectOption({ label: store.name });
  await add.getByLabel("From", { exact: true }).fill(today);
  await add.getByLabel("To", { exact: true }).fill(inAWeek);
  await add.getByRole("button", { name: "Add offer" }).click();
  const amount = add.getByLabel("Price for the units (kr)");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toBeFocused();
  await expect(amount).toHaveAccessibleDescription(
    "a fixed price must be below what 2 of the cheapest product cost, 40.00 kr",
  );
  await amount.fill("35");
  await add.getByRole("button", { name: "Add offer" }).click();
  await expect(add).toBeHidden();
  await page.getByRole("searchbox", { name: "Search offers" }).fill(fixed);
  const twoFor = line(page, fixed);
  await expect(twoFor).toContainText("2 för 35,00 kr");
  await expect(twoFor).toContainText(tea.name);
  await expect(twoFor).toContainText("No limit");

  // Edit: the values come back as saved; a new price and a limit are kept.
  await page.getByRole("button", { name: `Edit ${fixed} in ${store.name} from ${today}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit offer" });
  await expect(edit.getByLabel("Price for the units (kr)")).toHaveValue("35.00");
  await expect(edit.getByRole("list", { name: "Chosen products" })).toContainText(tea.name);
  await edit.getByLabel("Price for the units (kr)").fill("34,50");
  await edit.getByLabel("Limit per visit").fill("1");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, "Offer updated")).toBeVisible();
  await expect(twoFor).toContainText("2 för 34,50 kr");
  await expect(twoFor).toContainText("1 per visit");

  // Delete, after a confirmation that says which offer goes.
  await page.getByRole("button", { name: `Delete ${fixed} in ${store.name} from ${today}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this offer?" });
  await expect(confirm).toContainText(`${fixed} (2 för 34,50 kr)`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Offer deleted")).toBeVisible();
  await expect(twoFor).toHaveCount(0);
});

test("a members-only offer is marked Members in the list, and its edit dialog turns that off with the keyboard", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { store, coffee, tea } = await ownGoods(page);
  const [today, inAWeek] = [await serverDay(page), await serverDay(page, 6)];
  const [forMembers, forAll] = [unique("Medlem 3 för 2"), unique("Alla 3 för 2")];
  const days = { kind: "one_free", buy: 3, product_ids: [coffee.id, tea.id], starts_on: today, ends_on: inAWeek };
  await apiOffer(page.request, {
    ...days,
    label: forMembers,
    store_id: store.id,
    limit_per_visit: null,
    members_only: true,
  });
  await apiOffer(page.request, { ...days, label: forAll, store_id: store.id, limit_per_visit: null });
  await openOffers(page, coffee.name);

  await expect(line(page, forMembers).getByText("Members", { exact: true })).toBeVisible();
  await expect(line(page, forAll)).toContainText("Active");
  await expect(line(page, forAll).getByText("Members", { exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: `Edit ${forMembers} in ${store.name} from ${today}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit offer" });
  const members = edit.getByRole("checkbox", { name: "Members only" });
  await expect(members).toBeChecked();
  await members.focus();
  await page.keyboard.press("Space");
  await expect(members).not.toBeChecked();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, "Offer updated")).toBeVisible();
  await expect(line(page, forMembers)).toContainText("Active");
  await expect(line(page, forMembers).getByText("Members", { exact: true })).toHaveCount(0);

  // And on again: a new offer's box starts off, an edited one's shows what was saved.
  await page.getByRole("button", { name: `Edit ${forAll} in ${store.name} from ${today}` }).click();
  await expect(edit.getByRole("checkbox", { name: "Members only" })).not.toBeChecked();
  await edit.getByText("Members only", { exact: true }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(line(page, forAll).getByText("Members", { exact: true })).toBeVisible();
});

test("the Offers tab and its dialog pass the accessibility checks in both themes", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const { store, coffee, tea } = await ownGoods(page);
  const label = unique("3 för 2");
  await apiOffer(page.request, {
    label,
    kind: "one_free",
    buy: 3,
    product_ids: [coffee.id, tea.id],
    store_id: store.id,
    starts_on: await serverDay(page),
    ends_on: await serverDay(page, 3),
    limit_per_visit: null,
  });
  await openOffers(page, label);
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      if (isPhone(page)) await page.keyboard.press("Escape");
    }
    await expect(line(page, label)).toContainText("Active");
    await expectAccessible(page, `the offers, ${theme}`);
    await page.getByRole("button", { name: "New offer" }).click();
    const dialog = page.getByRole("dialog", { name: "New offer" });
    await pick(dialog, coffee);
    await dialog.getByRole("radio", { name: /Fixed price/ }).check();
    await expectAccessible(page, `the new offer dialog, ${theme}`);
    // With the problems shown: the messages beside their fields keep their contrast and names.
    await dialog.getByRole("button", { name: `Remove ${coffee.name}` }).click();
    await dialog.getByRole("button", { name: "Add offer" }).click();
    await expect(dialog.getByRole("combobox", { name: "Products" })).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Price for the units (kr)")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, `the new offer dialog with problems, ${theme}`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
});
