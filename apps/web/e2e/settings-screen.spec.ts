import { expect, isPhone, signIn, test } from "./fixtures.ts";
import { openTab, restoreBuiltInSettings, row, toast } from "./support/settings.ts";

// The Settings screen itself: search across tabs, read-only values, a list that cannot be loaded.

// The spec files share one server: every global value a test changed goes back to its built-in one.
test.afterEach(async ({ request }) => {
  await restoreBuiltInSettings(request);
});

test("search matches key, description and value in each tab, and says when nothing does", async ({ page }) => {
  if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "/settings");
  await expect(row(page, "brand_presets")).toBeVisible();
  const search = page.getByRole("searchbox", { name: "Search settings" });
  await expect(search).toHaveAttribute("placeholder", "Search settings...");

  // By the value's JSON text, ignoring case.
  await search.fill("STREAMING/CHANNELS");
  await expect(row(page, "brand_presets")).toBeVisible();
  await expect(row(page, "camera_defaults")).toHaveCount(0);
  await expect(page).toHaveURL(/search=STREAMING/);
  // The other tabs have no match.
  await openTab(page, "ai");
  await expect(page.getByText("No settings found")).toBeVisible();

  // By key: on the ai tab, the model; the thresholds are filtered out.
  await search.fill("model_name");
  await expect(row(page, "model_name")).toBeVisible();
  await expect(row(page, "confidence_threshold")).toHaveCount(0);
  // The tab and search stay in the URL across a reload.
  await expect(page).toHaveURL(/tab=ai/);
  await expect(page).toHaveURL(/search=model_name/);
  await page.reload();
  await expect(page.getByRole("tab", { name: /^ai\b/ })).toHaveAttribute("aria-selected", "true");
  await expect(search).toHaveValue("model_name");
  await expect(row(page, "model_name")).toBeVisible();

  // By description.
  await openTab(page, "store");
  await search.fill("time zone of a new store");
  await expect(row(page, "default_timezone")).toBeVisible();
  await expect(row(page, "default_country")).toHaveCount(0);
  await search.fill("no setting is called this");
  await expect(page.getByText("No settings found")).toBeVisible();
  await search.fill("");
  await expect(row(page, "default_country")).toBeVisible();

  // Nothing is wider than the screen, and values wrap.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await openTab(page, "camera");
  await row(page, "brand_presets").getByRole("button", { name: /^Edit/ }).click();
  await expect(page.getByRole("dialog", { name: "Edit Setting" }).getByLabel("hikvision Port")).toHaveValue("554");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("a read-only setting shows a badge and neither Edit nor Override; an editable one shows both", async ({
  page,
}) => {
  await signIn(page, "/settings?tab=store");
  const countries = row(page, "countries");
  await expect(countries).toContainText("Read-only");
  await expect(countries).toContainText("SE: Sweden");
  await expect(countries.getByRole("button")).toHaveCount(0);

  const country = row(page, "default_country");
  await expect(country).not.toContainText("Read-only");
  await expect(country.getByRole("button", { name: /^Edit/ })).toBeVisible();
  await expect(country.getByRole("button", { name: /^Override/ })).toBeVisible();
});

test("a list that cannot be loaded says so in a toast and offers to try again", async ({ page }) => {
  let fail = true;
  await page.route("**/api/v1/settings/", async (route) => {
    if (!fail) return route.fallback();
    await route.fulfill({ status: 400, json: { detail: "The settings could not be read", code: "bad_request" } });
  });
  await signIn(page, "/settings");
  await expect(toast(page, "Failed to load settings")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "The settings could not be read" })).toBeVisible();
  fail = false;
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(row(page, "brand_presets")).toBeVisible();
});
