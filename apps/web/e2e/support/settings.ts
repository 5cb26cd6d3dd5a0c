import { SETTING_DEFINITIONS, type Setting, type SettingCategory } from "@glide/contracts";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../fixtures.ts";
import { E2E_ADMIN } from "../playwright.config.ts";

/** One setting in the list, named by its key. */
export const row = (page: Page, key: string) => page.getByRole("article", { name: key, exact: true });
/** The toast that says `text`. */
export const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Opens the Settings screen's tab of `category`. */
export async function openTab(page: Page, category: SettingCategory) {
  await page.getByRole("tab", { name: new RegExp(`^${category}\\b`) }).click();
  await expect(page.getByRole("tab", { name: new RegExp(`^${category}\\b`) })).toHaveAttribute("aria-selected", "true");
}

/** Signs the request context in as the test admin. */
export async function signedIn(request: APIRequestContext) {
  expect((await request.post("/api/v1/admin/login", { data: E2E_ADMIN })).ok()).toBe(true);
}

/** Sets a global value through the API. */
export async function putSetting(request: APIRequestContext, category: SettingCategory, key: string, value: unknown) {
  const response = await request.put(`/api/v1/settings/${category}/${key}`, { data: { value } });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A global value as the API reads it. */
export async function settingValue(
  request: APIRequestContext,
  category: SettingCategory,
  key: string,
): Promise<unknown> {
  const response = await request.get(`/api/v1/settings/${category}/${key}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Setting).value;
}

/**
 * Every editable global value back to its built-in one. The spec files share
 * one server: the settings specs run it after each test that may change one.
 */
export async function restoreBuiltInSettings(request: APIRequestContext) {
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
}
