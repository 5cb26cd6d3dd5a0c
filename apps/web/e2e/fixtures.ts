import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";
import { E2E_ADMIN } from "./playwright.config.ts";

/**
 * Every spec fails on a console error or an uncaught exception. A 4xx answer
 * the app handles (401 before sign-in, 422 on bad input) is part of the
 * behaviour under test, so only those resource messages are let through.
 */
export const test = base.extend<{
  consoleErrors: string[];
  bankIdApp: "universal link" | "server";
  appLink: undefined;
}>({
  /**
   * Where the login page on a phone sends the shopper. The demo server names
   * the simulator's app page; most specs play the app through the simulator's
   * control API and keep the page in place, so they see BankID's universal
   * link (which they answer with 204). bankid-app.spec.ts uses the server's.
   */
  bankIdApp: ["universal link", { option: true }],
  appLink: [
    async ({ page, bankIdApp }, use) => {
      if (bankIdApp === "universal link") {
        await page.route("**/api/v1/public/config", async (route) => {
          let json: unknown;
          let response: Awaited<ReturnType<typeof route.fetch>>;
          try {
            response = await route.fetch();
            json = { ...((await response.json()) as object), bankid_app_url: "https://app.bankid.com/" };
          } catch {
            // The page went away (its test ended on a navigation) while its config was on the way: nobody waits.
            return;
          }
          await route.fulfill({ response, json }).catch(() => {});
        });
      }
      await use(undefined);
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
        // With the address: "Failed to load resource" alone does not say which call failed.
        const at = msg.location().url;
        errors.push(at ? `${msg.text()} (${at})` : msg.text());
      });
      page.on("pageerror", (err) => errors.push(`uncaught: ${err.message}`));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

/**
 * Sets the narrowest phone the shopper's app is made for (390 × 844). A
 * test that does runs in the phone project only: in the desktop one it
 * would see the same narrow screen again, only without a phone's touch and
 * pixel density.
 */
export async function onNarrowestPhone(page: Page): Promise<void> {
  test.skip(!isPhone(page), "made for the narrowest phone: the phone project runs it");
  await page.setViewportSize({ width: 390, height: 844 });
}

/**
 * Opens `path` signed in as the test admin. The session comes from the login
 * API into the page's cookie jar: the form and the way back to `path` are
 * auth.spec.ts's subject, and the other specs are spared a page load each.
 */
export async function signIn(page: Page, path = "/"): Promise<void> {
  const login = await page.request.post("/api/v1/admin/login", { data: E2E_ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  await page.goto(path);
  await expect(page).not.toHaveURL(/\/login/);
}

/** Opens the sidebar where it is an overlay (phones); on desktop it is already there. */
export async function openNav(page: Page): Promise<void> {
  if (isPhone(page)) await page.getByRole("button", { name: "Toggle Sidebar" }).click();
}

export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

export interface TestStore {
  id: string;
  name: string;
  /** The store's door scanner key, to play the scanner reading the entry QR code. */
  doorKey: string;
}

/**
 * A store made through the API by the test admin, with a door scanner key.
 * It lets shoppers without a card in unless `requireCard` (the setting's
 * default, store/require_card_at_door): most specs' shoppers share the
 * dev-login one, whose card another spec may just have removed; the rule is
 * card.spec.ts's subject.
 */
export async function createStore(
  request: APIRequestContext,
  options: { active?: boolean; requireCard?: boolean } = {},
): Promise<TestStore> {
  expect((await request.post("/api/v1/admin/login", { data: E2E_ADMIN })).ok()).toBe(true);
  const name = unique("Glide Butik");
  const created = await request.post("/api/v1/stores/", {
    data: { name, address: "Storgatan 1", city: "Testköping" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  if (!options.requireCard) {
    const open = await request.put(`/api/v1/settings/stores/${id}`, {
      data: { settings: { store: { require_card_at_door: false } } },
    });
    expect(open.ok(), await open.text()).toBe(true);
  }
  const key = await request.post(`/api/v1/stores/${id}/device-keys`, { data: { kind: "door_scanner" } });
  expect(key.ok()).toBe(true);
  if (options.active === false) {
    expect((await request.put(`/api/v1/stores/${id}`, { data: { is_active: false } })).ok()).toBe(true);
  }
  return { id, name, doorKey: ((await key.json()) as { key: string }).key };
}
