import { SETTING_TEXT_LIMITS } from "@glide/contracts";
import { createStore, expect, openNav, signIn, test } from "./fixtures.ts";
import { E2E_ADMIN } from "./playwright.config.ts";
import { openTab, restoreBuiltInSettings, row, settingValue, toast } from "./support/settings.ts";

// Changing a value: the edit dialog, editing in place, and a store's override.

// The spec files share one server: every global value a test changed goes back to its built-in one.
test.afterEach(async ({ request }) => {
  await restoreBuiltInSettings(request);
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
