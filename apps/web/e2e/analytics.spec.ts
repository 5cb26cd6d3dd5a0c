import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { createStore, expect, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { sellThroughExit } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

// The range presets count the admin's days and the figures the store's (Stockholm): the same days here,
// so a sale late in the evening (UTC) is still "today" on both sides.
test.use({ timezoneId: "Europe/Stockholm" });

/** The Stockholm day `daysAgo` days before today, as YYYY-MM-DD. */
const stockholmDay = (daysAgo: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Stockholm" }).format(Date.now() - daysAgo * 86_400_000);

/** A summary card's figure, by the card's title. */
const card = (page: Page, title: string): Locator =>
  page.getByRole("region", { name: title, exact: true }).getByTestId("stat-value");

/** What a CSV download holds, without the byte-order mark spreadsheets need. */
async function downloaded(page: Page, link: Locator): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const text = await readFile((await download.path())!, "utf8");
  return text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split(/\r?\n/);
}

test("analytics shows a store's sales in Swedish figures, charts them, follows the range and exports CSV", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page);
  const store = await createStore(page.request);
  const product = await createProduct(page.request, { price: 24.5, name: unique("Analyskaffe") });
  // One visit through the door that buys the coffee twice: 49,00 kr, one order, one entry.
  await sellThroughExit(page, store, [product.barcode, product.barcode]);

  await page.goto(`/analytics?store=${store.id}`);
  await expect(page).toHaveTitle("Analytics · Glide");

  // Cards in Swedish format: a decimal comma and "kr", a space before the per cent sign.
  await expect(card(page, "Revenue")).toHaveText(/^49,00\s*kr$/);
  await expect(card(page, "Orders")).toHaveText("1");
  await expect(card(page, "Conversion")).toHaveText(/^100\s*%$/);
  await expect(card(page, "Average basket")).toHaveText(/^49,00\s*kr$/);
  await expect(page.getByRole("region", { name: "Revenue", exact: true })).toContainText(/VAT \d+,\d{2}\s*kr/);

  // The revenue chart draws a bar for the day of the sale, and says its figures in words.
  const revenueChart = page.getByRole("img", { name: /^Revenue per day: 49,00\s*kr from 1 store/ });
  await expect(revenueChart.locator("path.recharts-rectangle").first()).toBeVisible();
  await expect(page.getByRole("img", { name: /^Sessions per hour of day: 1 entry and 1 purchase/ })).toBeVisible();
  const topProducts = page.getByRole("region", { name: "Top products" });
  await expect(topProducts.getByRole("row", { name: new RegExp(product.name) })).toContainText(/49,00\s*kr/);

  await expectAccessible(page, "the analytics screen");

  // A custom range that ends before the sale: in the URL, and the figures follow it.
  const [from, to] = [stockholmDay(60), stockholmDay(40)];
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  await expect(page).toHaveURL(/[?&]range=custom\b/);
  await expect(page).toHaveURL(new RegExp(`[?&]from=${from}\\b`));
  await expect(page).toHaveURL(new RegExp(`[?&]to=${to}\\b`));
  await expect(page).toHaveURL(new RegExp(`[?&]store=${store.id}`));
  await expect(card(page, "Revenue")).toHaveText(/^0,00\s*kr$/);
  await expect(card(page, "Orders")).toHaveText("0");
  await expect(topProducts).toContainText("No products sold in this range.");

  // Back to a preset: the range leaves the URL and the sale is counted again.
  await page.getByLabel("Date range").selectOption("7d");
  await expect(page).toHaveURL(/[?&]range=7d\b/);
  await expect(page).not.toHaveURL(/[?&]from=/);
  await expect(card(page, "Revenue")).toHaveText(/^49,00\s*kr$/);

  // Each export downloads the figures with their header row: kronor with a dot and two decimals.
  const products = await downloaded(page, page.getByRole("link", { name: "Export CSV: Top products" }));
  expect(products[0]).toBe("product_id,name,category,quantity,revenue");
  expect(products.slice(1)).toEqual([`${product.id},${product.name},Mejeri,2,49.00`]);
  const summary = await downloaded(page, page.getByRole("link", { name: "Export CSV: Summary" }));
  expect(summary[0]).toMatch(/^revenue,vat,revenue_excl_vat,orders,/);
  expect(summary[1]).toMatch(/^49\.00,/);
  const revenue = await downloaded(page, page.getByRole("link", { name: "Export CSV: Revenue per day" }));
  expect(revenue[0]).toBe("day,store_id,store_name,revenue,vat,orders");
  expect(revenue).toHaveLength(2);
  expect(revenue[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2},${store.id},${store.name},49\\.00,\\d+\\.\\d{2},1$`));
});
