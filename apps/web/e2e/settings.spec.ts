import {
  SETTING_DEFINITIONS,
  SETTING_TEXT_LIMITS,
  type SessionDetail,
  type Setting,
  type SettingCategory,
  type Store,
} from "@glide/contracts";
import type { APIRequestContext, Page } from "@playwright/test";
import { createStore, expect, isPhone, openNav, signIn, test, unique } from "./fixtures.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { exitGateKey, paidVisit, signInShopper } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";

/** One setting in the list, named by its key. */
const row = (page: Page, key: string) => page.getByRole("article", { name: key, exact: true });
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function openTab(page: Page, category: SettingCategory) {
  await page.getByRole("tab", { name: new RegExp(`^${category}\\b`) }).click();
  await expect(page.getByRole("tab", { name: new RegExp(`^${category}\\b`) })).toHaveAttribute("aria-selected", "true");
}

async function signedIn(request: APIRequestContext) {
  expect((await request.post("/api/v1/admin/login", { data: E2E_ADMIN })).ok()).toBe(true);
}

async function putSetting(request: APIRequestContext, category: SettingCategory, key: string, value: unknown) {
  const response = await request.put(`/api/v1/settings/${category}/${key}`, { data: { value } });
  expect(response.ok(), await response.text()).toBe(true);
}

async function settingValue(request: APIRequestContext, category: SettingCategory, key: string): Promise<unknown> {
  const response = await request.get(`/api/v1/settings/${category}/${key}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Setting).value;
}

// The spec files share one server: every global value a test changed goes back to its built-in one.
test.afterEach(async ({ request }) => {
  await signedIn(request);
  const settings = (await (await request.get("/api/v1/settings/")).json()) as Setting[];
  for (const setting of settings) {
    const definitions = SETTING_DEFINITIONS[setting.category] as Record<
      string,
      { value: unknown; is_editable: boolean }
    >;
    const builtIn = definitions[setting.key];
    if (builtIn?.is_editable && JSON.stringify(builtIn.value) !== JSON.stringify(setting.value)) {
      await putSetting(request, setting.category, setting.key, builtIn.value);
    }
  }
});

test("the default VAT set with the 12% quick button is what a new store and a new product start with", async ({
  page,
}) => {
  await signIn(page, "/settings");
  await expect(page.getByRole("heading", { name: "System Settings", exact: true })).toBeVisible();
  await expect(page.getByText("Manage global defaults and store-specific overrides")).toBeVisible();
  await expect(page).toHaveTitle("Settings · Glide");
  await openTab(page, "product");
  await expect(page).toHaveURL(/tab=product/);
  const vat = row(page, "default_vat_rate");
  await expect(vat).toContainText("25 %");

  const edit = vat.getByRole("button", { name: /^Edit/ });
  await edit.click();
  const dialog = page.getByRole("dialog", { name: "Edit Setting" });
  await expect(dialog.getByRole("button", { name: "Simple Mode" })).toHaveAttribute("aria-pressed", "true");
  // A real slider: named, its value said as a percent, moved by the keyboard.
  const slider = dialog.getByRole("slider", { name: "Default VAT rate" });
  await expect(slider).toHaveAttribute("aria-valuetext", "25 %");
  await expect(slider).toHaveAttribute("aria-valuemin", "0");
  await expect(slider).toHaveAttribute("aria-valuemax", "30");
  await slider.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(slider).toHaveAttribute("aria-valuetext", "24 %");
  await dialog.getByRole("button", { name: "12%" }).click();
  await expect(slider).toHaveAttribute("aria-valuetext", "12 %");
  await expect(dialog.getByRole("button", { name: "12%" })).toHaveAttribute("aria-pressed", "true");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Setting updated successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  await expect(vat).toContainText("12 %");
  expect(await settingValue(page.request, "product", "default_vat_rate")).toBe(0.12);

  // A new store's draft takes its VAT from the setting; an existing store keeps its own.
  await openNav(page);
  await page.getByRole("link", { name: "Stores", exact: true }).click();
  await page.getByRole("button", { name: "Create Store" }).click();
  const store = page.getByRole("dialog", { name: "Create Store" });
  await store.getByRole("tab", { name: "Settings" }).click();
  await expect(store.getByLabel("VAT Rate (%)")).toHaveValue("12");
  await expect(store.getByLabel("Currency")).toHaveValue("SEK");
  await page.keyboard.press("Escape");

  await openNav(page);
  await page.getByRole("link", { name: "Products", exact: true }).click();
  await page.getByRole("button", { name: "Add Product" }).click();
  await expect(page.getByRole("dialog", { name: "Add Product" }).getByLabel("VAT Rate (%)")).toHaveValue("12");
});

test("a new store's country, time zone, language and currency follow the settings", async ({ page, request }) => {
  await signedIn(request);
  await putSetting(request, "store", "default_country", "NO");
  await putSetting(request, "store", "default_timezone", "Europe/Oslo");
  await putSetting(request, "store", "default_locale", "nb-NO");
  await putSetting(request, "product", "default_currency", "NOK");
  await signIn(page, "/stores");
  await page.getByRole("button", { name: "Create Store" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Store" });
  await dialog.getByRole("tab", { name: "Location" }).click();
  await expect(dialog.getByLabel("Country")).toHaveValue("NO");
  await expect(dialog.getByLabel("Timezone")).toHaveValue("Europe/Oslo");
  await dialog.getByRole("tab", { name: "Settings" }).click();
  await expect(dialog.getByLabel("Language")).toHaveValue("nb-NO");
  await expect(dialog.getByLabel("Currency")).toHaveValue("NOK");
  await expect(dialog.getByLabel("VAT Rate (%)")).toHaveValue("25");
});

test("Advanced Mode ignores text that does not parse and says so; Save sends the last valid value", async ({
  page,
}) => {
  await signIn(page, "/settings?tab=ui");
  const defaults = row(page, "defaults");
  await expect(defaults).toContainText("page_size: 20");
  await defaults.getByRole("button", { name: /^Edit/ }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Setting" });
  await expect(dialog.getByLabel("Page size")).toHaveValue("20");
  await dialog.getByRole("button", { name: "Advanced Mode" }).click();
  const json = dialog.getByLabel("Value (JSON)");
  await expect(json).toHaveValue(/"page_size": 20/);

  const valid = { view_mode: "grid", page_size: 50, date_format: "DD.MM.YYYY", time_format: "HH:mm" };
  await json.fill(JSON.stringify(valid, null, 2));
  await expect(dialog.getByText(/^Not valid JSON/)).toHaveCount(0);
  // Half-typed text: said under the editor, and ignored.
  await json.press("End");
  await json.pressSequentially(', "page_size": 10');
  await expect(dialog.getByText(/^Not valid JSON: .+Save sends the last valid value/)).toBeVisible();
  await expect(json).toHaveAttribute("aria-invalid", "true");
  // Simple Mode shows the last valid value too.
  await dialog.getByRole("button", { name: "Simple Mode" }).click();
  await expect(dialog.getByLabel("Page size")).toHaveValue("50");
  await expect(dialog.getByLabel("View mode")).toHaveValue("grid");
  await dialog.getByRole("button", { name: "Advanced Mode" }).click();
  await dialog.getByLabel("Value (JSON)").pressSequentially("}}");
  await expect(dialog.getByText(/^Not valid JSON/)).toBeVisible();
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Setting updated successfully")).toBeVisible();
  await expect(defaults).toContainText("page_size: 50");
  await expect(defaults).toContainText("view_mode: grid");
  expect(await settingValue(page.request, "ui", "defaults")).toEqual(valid);
});

test("the server's reason for refusing a value is shown beside the control it is about", async ({ page }) => {
  await signIn(page, "/settings?tab=ui");
  // Advanced Mode: under the JSON, naming the field.
  await row(page, "defaults").getByRole("button", { name: /^Edit/ }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Setting" });
  await dialog.getByRole("button", { name: "Advanced Mode" }).click();
  const json = dialog.getByLabel("Value (JSON)");
  await json.fill(JSON.stringify({ view_mode: "list", page_size: 0, date_format: "YYYY-MM-DD", time_format: "HH:mm" }));
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(json).toHaveAttribute("aria-invalid", "true");
  await expect(json).toBeFocused();
  await expect(json).toHaveAccessibleDescription("page_size: The page size must be from 1 to 100");
  // One message, beside the value: no toast repeats it.
  await expect(toast(page, "Failed to update setting")).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(row(page, "defaults")).toContainText("page_size: 20");

  // Simple Mode: beside the field of the object it names.
  await openTab(page, "camera");
  await row(page, "system_defaults").getByRole("button", { name: /^Edit/ }).click();
  const port = dialog.getByLabel("Port");
  await expect(port).toHaveValue("554");
  await port.fill("0");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(port).toHaveAttribute("aria-invalid", "true");
  await expect(port).toHaveAccessibleDescription("A port must be a whole number from 1 to 65535");
  await expect(port).toBeFocused();
  await expect(dialog.getByLabel("Brand")).not.toHaveAttribute("aria-invalid", "true");
  await port.fill("8554");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, "system_defaults")).toContainText("port: 8554");
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

test("a value edited in place is a draft: Cancel throws it away, Save sends it", async ({ page }) => {
  await signIn(page, "/settings?tab=ai");
  const threshold = row(page, "confidence_threshold");
  const value = threshold.getByRole("button", { name: /^Change confidence_threshold, now 50 %/ });
  await value.click();
  const input = threshold.getByLabel("New value of confidence_threshold (%)");
  await expect(input).toBeFocused();
  await expect(input).toHaveValue("50");
  await expect(threshold.getByRole("button", { name: "Save" })).toBeDisabled();
  await input.fill("60");
  await expect(threshold.getByText("Draft, not saved")).toBeVisible();
  await expect(threshold.getByRole("button", { name: "Save" })).toBeEnabled();

  // A draft survives a tab change; Cancel discards it and nothing is sent.
  await openTab(page, "ui");
  await openTab(page, "ai");
  await expect(input).toHaveValue("60");
  await threshold.getByRole("button", { name: "Cancel" }).click();
  await expect(value).toBeFocused();
  await expect(threshold).toContainText("50 %");
  expect(await settingValue(page.request, "ai", "confidence_threshold")).toBe(0.5);

  // Escape discards too; Enter saves.
  await value.click();
  await input.fill("65");
  await page.keyboard.press("Escape");
  await expect(threshold).toContainText("50 %");
  await value.click();
  await input.fill("70");
  await page.keyboard.press("Enter");
  await expect(toast(page, "Setting saved successfully")).toBeVisible();
  await expect(threshold.getByRole("button", { name: /^Change confidence_threshold, now 70 %/ })).toBeVisible();
  expect(await settingValue(page.request, "ai", "confidence_threshold")).toBe(0.7);

  // A choice is edited in place with a select.
  const model = row(page, "model_name");
  await model.getByRole("button", { name: /^Change model_name/ }).click();
  await model.getByLabel("New value of model_name").selectOption("yolov8s");
  await model.getByRole("button", { name: "Save" }).click();
  await expect(model.getByRole("button", { name: /^Change model_name, now yolov8s/ })).toBeVisible();

  // A value the server refuses: its reason beside the value; the draft stays.
  await openTab(page, "product");
  const symbol = row(page, "currency_symbol");
  await symbol.getByRole("button", { name: /^Change currency_symbol/ }).click();
  const symbolInput = symbol.getByLabel("New value of currency_symbol");
  await expect(symbolInput).toHaveAttribute("maxlength", String(SETTING_TEXT_LIMITS.currency_symbol));
  await symbolInput.fill("   ");
  await symbol.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Failed to save setting")).toBeVisible();
  await expect(symbolInput).toHaveAccessibleDescription("A currency symbol cannot be empty");
  await expect(symbolInput).toHaveAttribute("aria-invalid", "true");
  await symbol.getByRole("button", { name: "Cancel" }).click();
  await expect(symbol).toContainText("kr");
});

test("a store override needs a store, then shows in that store and in the history, and can be removed", async ({
  page,
  request,
}) => {
  // A store with no override of its own (createStore otherwise lets shoppers without a card in by one).
  const store = await createStore(request, { requireCard: true });
  await signIn(page, "/settings?tab=ai");
  const threshold = row(page, "confidence_threshold");
  await threshold.getByRole("button", { name: /^Override/ }).click();
  const dialog = page.getByRole("dialog", { name: "Set Store Override" });
  const submit = dialog.getByRole("button", { name: "Set Override" });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel("Store *").selectOption({ label: store.name });
  await expect(dialog.getByText(`${store.name} uses the global value: 50 %`)).toBeVisible();
  await expect(submit).toBeEnabled();
  const slider = dialog.getByRole("slider", { name: "Confidence threshold" });
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveAttribute("aria-valuetext", "60 %");
  await submit.click();
  await expect(toast(page, "Store override set successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  // The global value is unchanged; the store's effective value is the override.
  await expect(threshold).toContainText("50 %");
  const effective = await (await page.request.get(`/api/v1/settings/effective?store_id=${store.id}`)).json();
  expect(effective.ai.confidence_threshold).toBe(0.6);

  // The store's dialog lists it on its Settings tab.
  await openNav(page);
  await page.getByRole("link", { name: "Stores", exact: true }).click();
  await page.getByRole("article", { name: store.name, exact: true }).getByRole("button", { name: "Edit" }).click();
  const storeDialog = page.getByRole("dialog", { name: "Edit Store" });
  await storeDialog.getByRole("tab", { name: "Settings" }).click();
  const overrides = storeDialog.getByRole("region", { name: "Overrides" });
  await expect(overrides).toContainText("ai/confidence_threshold = 60 %");
  await page.keyboard.press("Escape");

  // The history: newest first, who, which store, old and new value.
  await openNav(page);
  await page.getByRole("link", { name: "Settings", exact: true }).click();
  await page.getByRole("button", { name: "History" }).click();
  const history = page.getByRole("dialog", { name: "Settings History" });
  const newest = history.getByRole("list", { name: "Changes" }).getByRole("listitem").first();
  await expect(newest).toContainText("ai/confidence_threshold");
  await expect(newest).toContainText(`Store: ${store.name}`);
  await expect(newest).toContainText("(no override)");
  await expect(newest).toContainText("60 %");
  await expect(newest).toContainText(E2E_ADMIN.email);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "History" })).toBeFocused();

  // Removed again: the store follows the global value and its dialog lists nothing.
  await openTab(page, "ai");
  await threshold.getByRole("button", { name: /^Override/ }).click();
  await dialog.getByLabel("Store *").selectOption({ label: store.name });
  await expect(dialog).toContainText("Current override: 60 %");
  await expect(slider).toHaveAttribute("aria-valuetext", "60 %");
  await dialog.getByRole("button", { name: "Remove Override" }).click();
  await expect(toast(page, "Store override removed")).toBeVisible();
  await openNav(page);
  await page.getByRole("link", { name: "Stores", exact: true }).click();
  await page.getByRole("article", { name: store.name, exact: true }).getByRole("button", { name: "Edit" }).click();
  await storeDialog.getByRole("tab", { name: "Settings" }).click();
  await expect(storeDialog.getByLabel("VAT Rate (%)")).toBeVisible();
  await expect(storeDialog.getByRole("region", { name: "Overrides" })).toHaveCount(0);
});

test("the products screen's page size and view follow ui/defaults unless the URL or this browser say otherwise", async ({
  page,
  request,
}) => {
  await signedIn(request);
  await createProduct(request, { price: 10, name: unique("Sidstorlek") });
  await putSetting(request, "ui", "defaults", {
    view_mode: "grid",
    page_size: 10,
    date_format: "YYYY-MM-DD",
    time_format: "HH:mm",
  });
  await signIn(page, "/products");
  const perPage = page.getByLabel("Per page");
  await expect(perPage).toHaveValue("10");
  await expect(page).not.toHaveURL(/size=/);
  await expect(page.getByRole("button", { name: "Grid view" })).toHaveAttribute("aria-pressed", "true");
  // A size chosen here goes into the URL, and wins.
  await perPage.selectOption("20");
  await expect(page).toHaveURL(/size=20/);
  await perPage.selectOption("10");
  await expect(page).not.toHaveURL(/size=/);
  await page.goto("/products?size=50");
  await expect(perPage).toHaveValue("50");
  // A view chosen in this browser wins over the default.
  await page.getByRole("button", { name: "List view" }).click();
  await page.goto("/products");
  await expect(page.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "true");
  await expect(perPage).toHaveValue("10");
});

test.describe("dates", () => {
  // The oracle below reads the instants in the browser's own zone: one zone on both sides.
  test.use({ timezoneId: "Europe/Stockholm" });

  /** An instant as DD.MM.YYYY and h:mm A in Stockholm, worked out with Intl, apart from the console's formatter. */
  const stockholm = (iso: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone: "Europe/Stockholm",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "numeric",
        minute: "2-digit",
        second: "2-digit",
        hour12: true,
      })
        .formatToParts(new Date(iso))
        .map((part) => [part.type, part.value]),
    );
    const day = `${parts.day}.${parts.month}.${parts.year}`;
    return {
      day,
      shortDay: `${parts.day}.${parts.month}`,
      hour: `${parts.hour}:00 ${parts.dayPeriod}`,
      dateTime: `${day} ${parts.hour}:${parts.minute} ${parts.dayPeriod}`,
      clock: `${parts.hour}:${parts.minute}:${parts.second} ${parts.dayPeriod}`,
    };
  };

  test("every date and time the console prints follows ui/defaults' date_format and time_format", async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page);
    const store = await createStore(page.request);
    const product = await createProduct(page.request, { price: 12.5, name: unique("Datumkaffe") });
    const who = await signInShopper(page);
    const visit = await paidVisit(page, who, store, await exitGateKey(page, store), [product.barcode]);
    const read = async <T>(path: string) => {
      const response = await page.request.get(path);
      expect(response.ok(), await response.text()).toBe(true);
      return (await response.json()) as T;
    };
    const session = await read<SessionDetail>(`/api/v1/admin/sessions/${visit.sessionId}`);
    const refund = await page.request.post(`/api/v1/admin/orders/${session.order?.id}/refunds`, {
      data: { idempotency_key: crypto.randomUUID(), reason: "Datumtest", whole: true },
    });
    expect(refund.ok(), await refund.text()).toBe(true);
    const refunded = stockholm(
      (await read<SessionDetail>(`/api/v1/admin/sessions/${visit.sessionId}`)).refunds[0]!.created_at,
    );
    const [created] = await read<Store[]>(`/api/v1/stores/?search=${encodeURIComponent(store.name)}`);

    // The built-in patterns first: YYYY-MM-DD.
    await page.goto(`/stores?search=${encodeURIComponent(store.name)}`);
    const card = page.getByRole("article", { name: store.name, exact: true });
    const [y, m, d] = stockholm(created!.created_at).day.split(".").reverse();
    await expect(card).toContainText(`Created ${y}-${m}-${d}`);

    await putSetting(page.request, "ui", "defaults", {
      view_mode: "list",
      page_size: 20,
      date_format: "DD.MM.YYYY",
      time_format: "h:mm A",
    });
    await page.reload();
    await expect(card).toContainText(`Created ${stockholm(created!.created_at).day}`);

    await page.goto(`/sessions?store=${store.id}`);
    const entered = stockholm(session.entered_at);
    await expect(page.locator(`[data-session-id="${visit.sessionId}"]`)).toContainText(entered.dateTime);
    await page.goto(`/sessions?store=${store.id}&session=${visit.sessionId}`);
    const detail = page.getByRole("dialog", { name: who.name });
    await expect(detail).toContainText(`Entered${entered.dateTime}`);
    await expect(detail.getByRole("region", { name: "Refunds", exact: true })).toContainText(refunded.dateTime);
    // The timeline's day is the visit's own; its times have seconds.
    const first = session.timeline[0]!;
    await expect(detail.getByRole("list", { name: "Timeline" }).locator("time").first()).toHaveText(
      stockholm(first.at).clock,
    );

    await page.goto(`/analytics?store=${store.id}&range=7d`);
    const paid = stockholm(session.order!.paid_at!);
    await expect(page.getByRole("img", { name: /^Revenue per day/ })).toHaveAccessibleName(
      new RegExp(`best day ${paid.day.replaceAll(".", "\\.")} `),
    );
    // The axis's day without its year: one of the chart's labels.
    const dayLabel = page.getByRole("img", { name: /^Revenue per day/ }).locator("svg text");
    await expect(dayLabel.filter({ hasText: new RegExp(`^${paid.shortDay.replace(".", "\\.")}$`) })).toHaveCount(1);
    await expect(page.getByRole("img", { name: /^Sessions per hour of day/ })).toHaveAccessibleName(
      new RegExp(`busiest hour ${entered.hour} `),
    );
    await expect(page.getByRole("region", { name: "Refunds per day" }).getByRole("cell").first()).toHaveText(
      refunded.day,
    );

    await page.goto(`/audit?search=${encodeURIComponent(store.name)}`);
    await expect(page.locator("main time").first()).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{1,2}:\d{2} [AP]M$/);

    await page.goto("/settings?tab=ui");
    const defaults = await read<Setting>("/api/v1/settings/ui/defaults");
    await expect(row(page, "defaults")).toContainText(`Updated ${stockholm(defaults.updated_at!).dateTime}`);
    await page.getByRole("button", { name: "History" }).click();
    const history = page.getByRole("dialog", { name: "Settings History" });
    await expect(history.locator("time").first()).toHaveText(stockholm(defaults.updated_at!).dateTime);
  });
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
