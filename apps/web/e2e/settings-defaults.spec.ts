import { SETTING_DEFINITIONS, type SessionDetail, type Setting, type Store } from "@glide/contracts";
import { createStore, expect, openNav, signIn, test, unique } from "./fixtures.ts";
import { exitGateKey, paidVisit, signInShopper } from "./support/sales.ts";
import { openTab, putSetting, restoreBuiltInSettings, row, settingValue, signedIn, toast } from "./support/settings.ts";
import { createProduct } from "./support/shopping.ts";
import { todayText } from "./support/vat.ts";

// What the global values change elsewhere in the console: new stores and products, page sizes, dates.

const BUILT_IN_RATES = SETTING_DEFINITIONS.product.vat_rates_by_country.value as Record<string, number>;

// The spec files share one server: every global value a test changed goes back to its built-in one.
test.afterEach(async ({ request }) => {
  await restoreBuiltInSettings(request);
});

test("the default VAT category chosen in Simple Mode is what a new product starts with", async ({ page }) => {
  await signIn(page, "/settings");
  await expect(page.getByRole("heading", { name: "System Settings", exact: true })).toBeVisible();
  await expect(page.getByText("Manage global defaults and store-specific overrides")).toBeVisible();
  await expect(page).toHaveTitle("Settings · Glide");
  await openTab(page, "product");
  await expect(page).toHaveURL(/tab=product/);
  // The old percent is gone: a category, read by its name.
  await expect(row(page, "default_vat_rate")).toHaveCount(0);
  const vat = row(page, "default_vat_category");
  await expect(vat).toContainText("Standard");

  const edit = vat.getByRole("button", { name: /^Edit/ });
  await edit.click();
  const dialog = page.getByRole("dialog", { name: "Edit Setting" });
  await expect(dialog.getByRole("button", { name: "Simple Mode" })).toHaveAttribute("aria-pressed", "true");
  const select = dialog.getByRole("combobox", { name: "Default VAT category" });
  await expect(select).toHaveValue("standard");
  await expect(select.getByRole("option")).toHaveText([
    "Standard",
    "Food (livsmedel, folköl)",
    "Alcoholic drink (over 3.5 %)",
    "Books and newspapers",
    "Exempt",
  ]);
  await select.selectOption({ label: "Food (livsmedel, folköl)" });
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Setting updated successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  await expect(vat).toContainText("Food (livsmedel, folköl)");
  expect(await settingValue(page.request, "product", "default_vat_category")).toBe("food");

  await openNav(page);
  await page.getByRole("link", { name: "Products", exact: true }).click();
  await page.getByRole("button", { name: "Add Product" }).click();
  const category = page.getByRole("dialog", { name: "Add Product" }).getByLabel("VAT Category");
  await expect(category).toHaveValue("food");
  await expect(category).toHaveAccessibleDescription(todayText("food"));
});

test("a new store's VAT is its country's rate in vat_rates_by_country; an existing store keeps its own", async ({
  page,
  request,
}) => {
  await signedIn(request);
  const existing = await createStore(request);
  await putSetting(request, "product", "vat_rates_by_country", { ...BUILT_IN_RATES, SE: 0.12 });
  await signIn(page, "/stores");
  await page.getByRole("button", { name: "Create Store" }).click();
  const store = page.getByRole("dialog", { name: "Create Store" });
  await store.getByRole("tab", { name: "Settings" }).click();
  await expect(store.getByLabel("VAT Rate (%)")).toHaveValue("12");
  await expect(store.getByLabel("Currency")).toHaveValue("SEK");
  await page.keyboard.press("Escape");

  await page.goto(`/stores?search=${encodeURIComponent(existing.name)}`);
  await page.getByRole("article", { name: existing.name, exact: true }).getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Store" });
  await edit.getByRole("tab", { name: "Settings" }).click();
  await expect(edit.getByLabel("VAT Rate (%)")).toHaveValue("25");
});

test("a new store's country, time zone, language and currency follow the settings", async ({ page, request }) => {
  await signedIn(request);
  await putSetting(request, "store", "default_country", "NO");
  await putSetting(request, "store", "default_timezone", "Europe/Oslo");
  await putSetting(request, "store", "default_locale", "nb-NO");
  await putSetting(request, "product", "default_currency", "NOK");
  await putSetting(request, "product", "vat_rates_by_country", { ...BUILT_IN_RATES, NO: 0.15 });
  await signIn(page, "/stores");
  await page.getByRole("button", { name: "Create Store" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Store" });
  await dialog.getByRole("tab", { name: "Location" }).click();
  await expect(dialog.getByLabel("Country")).toHaveValue("NO");
  await expect(dialog.getByLabel("Timezone")).toHaveValue("Europe/Oslo");
  await dialog.getByRole("tab", { name: "Settings" }).click();
  await expect(dialog.getByLabel("Language")).toHaveValue("nb-NO");
  await expect(dialog.getByLabel("Currency")).toHaveValue("NOK");
  await expect(dialog.getByLabel("VAT Rate (%)")).toHaveValue("15");
  await page.keyboard.press("Escape");

  // A country the map does not name starts at the built-in 25 %.
  const { NO: _norway, ...withoutNorway } = BUILT_IN_RATES;
  await putSetting(request, "product", "vat_rates_by_country", withoutNorway);
  await page.reload();
  await page.getByRole("button", { name: "Create Store" }).click();
  await dialog.getByRole("tab", { name: "Settings" }).click();
  await expect(dialog.getByLabel("VAT Rate (%)")).toHaveValue("25");
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
