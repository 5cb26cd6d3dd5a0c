import type { Locator, Page } from "@playwright/test";
import { expect, isPhone, openNav, signIn, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

const FOOD = "Food (livsmedel, folköl)";

/** A category's section of the VAT rates tab. */
const category = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

/** The period of a category that starts on `from`: a table row on a wide screen, a card on a phone. */
const period = (page: Page, name: string, from: string): Locator =>
  category(page, name)
    .getByRole(isPhone(page) ? "listitem" : "row")
    .filter({ hasText: from });

/**
 * Each project changes a country of its own: the desktop and phone runs share
 * one server and database, and the Swedish table is the one sales are taxed by.
 */
const countryOf = (page: Page) => (isPhone(page) ? { code: "DK", name: "Denmark" } : { code: "NO", name: "Norway" });

/** The server's today's year, so the periods below are current and upcoming whatever day the run is on. */
async function serverYear(page: Page): Promise<number> {
  const answer = await page.request.get("/api/v1/vat-rates?country=SE");
  expect(answer.ok(), await answer.text()).toBe(true);
  return Number(((await answer.json()) as { today: string }).today.slice(0, 4));
}

async function openPricing(page: Page) {
  await openNav(page);
  await page.getByRole("link", { name: "Pricing", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Pricing", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "VAT rates" })).toHaveAttribute("aria-selected", "true");
}

test("the VAT rates tab lists Sweden's rates per category, and the country stays in the URL", async ({ page }) => {
  await signIn(page);
  await openPricing(page);
  await expect(page).toHaveTitle("Pricing · Glide");

  const reduced = period(page, FOOD, "2026-04-01");
  await expect(reduced).toContainText("6 %");
  await expect(reduced).toContainText("2027-12-31");
  await expect(reduced).toContainText("Current");
  // The 12 % before it has ended; the one after it is still to come.
  await expect(period(page, FOOD, "1996-01-01")).toContainText("Ended");
  await expect(period(page, FOOD, "2028-01-01")).toContainText("12 %");
  await expect(period(page, FOOD, "2028-01-01")).toContainText("until further notice");
  await expect(period(page, FOOD, "2028-01-01")).toContainText("Upcoming");
  const standard = period(page, "Standard", "1990-07-01");
  await expect(standard).toContainText("25 %");
  await expect(standard).toContainText("Current");
  await expect(period(page, "Exempt", "1990-07-01")).toContainText("0 %");

  // Another country: the address says which, so a reload (or a shared link) shows the same list.
  const country = page.getByLabel("Country");
  await country.selectOption("US");
  await expect(page).toHaveURL(/[?&]country=US\b/);
  await expect(page).toHaveURL(/[?&]tab=vat\b/);
  await expect(page.getByText("No VAT rates for United States yet")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Country")).toHaveValue("US");
  await expect(page.getByText("No VAT rates for United States yet")).toBeVisible();
  await page.goto("/pricing?tab=vat&country=SE");
  await expect(period(page, FOOD, "2026-04-01")).toContainText("Current");
});

test("a platform admin adds, edits and deletes a period; overlaps and bad days are refused in the dialog", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { code, name } = countryOf(page);
  await signIn(page);
  const year = await serverYear(page);
  const thisYear = `${year}-01-01`;
  const nextYear = `${year + 1}-01-01`;
  await openPricing(page);

  // Added from the Swedish list for another country: the screen follows it there.
  await page.getByRole("button", { name: "Add VAT rate" }).click();
  const add = page.getByRole("dialog", { name: "Add VAT rate" });
  await expect(add.getByLabel("Country")).toHaveValue("SE");
  await add.getByLabel("Country").selectOption(code);
  await add.getByLabel("Category").selectOption("food");
  await add.getByLabel("Rate (%)").fill("15");
  await add.getByLabel("Valid from").fill(thisYear);
  await add.getByRole("button", { name: "Add VAT rate" }).click();
  await expect(add).toBeHidden();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "VAT rate added" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]country=${code}\\b`));
  await expect(page.getByLabel("Country")).toHaveValue(code);
  const first = period(page, FOOD, thisYear);
  await expect(first).toContainText("15 %");
  await expect(first).toContainText("until further notice");
  await expect(first).toContainText("Current");
  await expect(category(page, "Standard")).toContainText("No rate set for this category");

  // A period that shares days with it: the server's reason, in the dialog, which stays open.
  await page.getByRole("button", { name: "Add VAT rate" }).click();
  const second = page.getByRole("dialog", { name: "Add VAT rate" });
  await expect(second.getByLabel("Country")).toHaveValue(code);
  await second.getByLabel("Category").selectOption("food");
  await second.getByLabel("Rate (%)").fill("12");
  await second.getByLabel("Valid from").fill(nextYear);
  await second.getByRole("button", { name: "Add VAT rate" }).click();
  await expect(second.getByRole("alert")).toContainText(
    `food in ${code} already has 15 % from ${thisYear} with no end; end that period first or choose other days`,
  );
  await expect(second).toBeVisible();

  // A last day before the first: the reason sits beside Valid to, which takes focus; no banner repeats it.
  const validTo = second.getByLabel("Valid to (optional)");
  await validTo.fill(`${year}-12-31`);
  await second.getByRole("button", { name: "Add VAT rate" }).click();
  await expect(validTo).toHaveAttribute("aria-invalid", "true");
  await expect(validTo).toBeFocused();
  await expect(validTo).toHaveAccessibleDescription(/valid_to cannot be before valid_from/);
  await expect(second.getByRole("alert")).toHaveCount(0);
  // The client's own rule: a rate that is not a number is not sent.
  await second.getByLabel("Rate (%)").fill("twelve");
  await second.getByRole("button", { name: "Add VAT rate" }).click();
  await expect(second.getByLabel("Rate (%)")).toHaveAccessibleDescription(
    "The rate is a number of percent, e.g. 6 or 12.5",
  );
  await second.getByRole("button", { name: "Cancel" }).click();
  await expect(second).toBeHidden();

  // Edit: the first period ends with the year; then the next one fits.
  await page.getByRole("button", { name: `Edit ${FOOD} from ${thisYear}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit VAT rate" });
  await expect(edit.getByLabel("Rate (%)")).toHaveValue("15");
  await expect(edit.getByLabel("Valid from")).toHaveValue(thisYear);
  await edit.getByLabel("Valid to (optional)").fill(`${year}-12-31`);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  await expect(first).toContainText(`${year}-12-31`);
  await expect(first).not.toContainText("until further notice");

  await page.getByRole("button", { name: "Add VAT rate" }).click();
  const third = page.getByRole("dialog", { name: "Add VAT rate" });
  await third.getByLabel("Category").selectOption("food");
  await third.getByLabel("Rate (%)").fill("12,5");
  await third.getByLabel("Valid from").fill(nextYear);
  await third.getByRole("button", { name: "Add VAT rate" }).click();
  await expect(third).toBeHidden();
  const later = period(page, FOOD, nextYear);
  await expect(later).toContainText("12.5 %");
  await expect(later).toContainText("Upcoming");

  // Delete, after a confirmation that says which period goes.
  await page.getByRole("button", { name: `Delete ${FOOD} from ${nextYear}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this VAT rate?" });
  await expect(confirm).toContainText(`12.5 % from ${nextYear} in ${name}`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "VAT rate deleted" })).toBeVisible();
  await expect(later).toHaveCount(0);
  await expect(first).toBeVisible();
});

/** A mark's line on the Pant tab for Sweden: a table row on a wide screen, a card on a phone. */
const mark = (page: Page, name: string): Locator =>
  page
    .getByRole(isPhone(page) ? "list" : "table", { name: "Pant in Sweden" })
    .getByRole(isPhone(page) ? "listitem" : "row")
    .filter({ has: page.getByText(name, { exact: true }) });

test("a platform admin sets what a can is worth in Sweden on the Pant tab, and sets it back", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await openPricing(page);
  await page.getByRole("tab", { name: "Pant" }).click();
  await expect(page).toHaveURL(/[?&]tab=pant\b/);
  await expect(page.getByLabel("Country")).toHaveValue("SE");
  const can = mark(page, "Can");
  await expect(can).toContainText("2 kr");
  await expect(mark(page, "PET bottle over 1 l")).toContainText("3 kr");

  /** Opens the Edit dialog of the can, types an amount and saves it. */
  async function setCan(typed: string, shown: string) {
    await page.getByRole("button", { name: "Edit Can", exact: true }).click();
    const edit = page.getByRole("dialog", { name: "Edit pant" });
    await expect(edit).toContainText("What Can is worth in Sweden");
    await edit.getByLabel("Amount (kr)").fill(typed);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(edit).toBeHidden();
    await expect(can).toContainText(shown);
  }

  try {
    await setCan("2,50", "2.50 kr");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Pant updated" }).first()).toBeVisible();
    await page.reload();
    await expect(can).toContainText("2.50 kr");
    await setCan("2", "2 kr");
    await expect(can).not.toContainText("2.50");
  } finally {
    // The worker's other specs sell cans in Sweden: the amount goes back even when a step above failed.
    const back = await page.request.put("/api/v1/pant-amounts/SE/can", { data: { amount: 2 } });
    expect(back.ok(), await back.text()).toBe(true);
  }
});

test("a store admin reads the VAT rates and the pant but is offered no changes", async ({ page }) => {
  await signIn(page);
  // The console decides what to offer from /me; the server's 403 for store admins is tested on the server.
  const me = await (await page.request.get("/api/v1/admin/me")).json();
  await page.route("**/api/v1/admin/me", (route) =>
    route.fulfill({ json: { ...me, role: "store_admin", store_ids: [] } }),
  );
  await page.goto("/pricing");
  await expect(period(page, FOOD, "2026-04-01")).toContainText("Current");
  await expect(page.getByRole("button", { name: "Add VAT rate" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Edit|Delete) / })).toHaveCount(0);
  // The Pant tab too: the amounts, without Edit or Remove.
  await page.getByRole("tab", { name: "Pant" }).click();
  await expect(mark(page, "Can")).toContainText("2 kr");
  await expect(page.getByRole("button", { name: /^(Edit|Remove) / })).toHaveCount(0);
});

test("the Pricing screen and its dialog pass the accessibility checks in both themes", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "/pricing");
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await openNav(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      if (isPhone(page)) await page.keyboard.press("Escape");
    }
    await expect(period(page, FOOD, "2026-04-01")).toContainText("Current");
    await expectAccessible(page, `the VAT rates, ${theme}`);
    await page.getByRole("button", { name: "Add VAT rate" }).click();
    const dialog = page.getByRole("dialog", { name: "Add VAT rate" });
    await expect(dialog.getByLabel("Rate (%)")).toBeVisible();
    await expectAccessible(page, `the add VAT rate dialog, ${theme}`);
    // With the problems shown: the messages beside their fields keep their contrast and names.
    await dialog.getByRole("button", { name: "Add VAT rate" }).click();
    await expect(dialog.getByLabel("Rate (%)")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Valid from")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, `the add VAT rate dialog with problems, ${theme}`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // The Pant tab's list (its dialog is built as the VAT rate one is), then back for the next theme.
    await page.getByRole("tab", { name: "Pant" }).click();
    await expect(mark(page, "Can")).toContainText("2 kr");
    await expectAccessible(page, `the pant, ${theme}`);
    await page.getByRole("tab", { name: "VAT rates" }).click();
  }
});
