import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createStore, expect, isPhone, test } from "./fixtures.ts";
import { SIMULATOR_CONTROL_URL } from "./playwright.config.ts";

/*
 * BankID on the same phone as the demo runs it: the login page opens the
 * simulator's "BankID app" page (the address the server gives), the shopper
 * approves there, and the app sends the browser back to the login page.
 */
test.use({ bankIdApp: "server" });
test.beforeEach(({ page }) => {
  test.skip(!isPhone(page), "BankID on the same device is the phone's path");
});

const simulatorPort = new URL(SIMULATOR_CONTROL_URL).port;

/**
 * The autostart token of every BankID start the page makes, read as it passes
 * (the page leaves for the app before its own response could be read).
 */
async function watchSignIns(page: Page): Promise<string[]> {
  const tokens: string[] = [];
  await page.route("**/api/v1/auth/init", async (route) => {
    const response = await route.fetch();
    tokens.push(((await response.json()) as { auto_start_token: string }).auto_start_token);
    await route.fulfill({ response });
  });
  return tokens;
}

/** Opens the login page under `origin`, and expects to land on the BankID app with the order it starts. */
async function openLogin(page: Page, origin: string, storeId: string): Promise<string[]> {
  const tokens = await watchSignIns(page);
  await page.goto(`${origin}/customer/login?store_id=${storeId}`);
  const host = new URL(origin).hostname;
  await expect(page).toHaveURL(new RegExp(`^http://${host}:${simulatorPort}/app\\?autostarttoken=`));
  expect(page.url()).toBe(`http://${host}:${simulatorPort}/app?autostarttoken=${tokens[0]}&redirect=null`);
  await expect(page.getByRole("heading", { name: "BankID", exact: true })).toBeVisible();
  return tokens;
}

test("the login page opens the simulator's app, the shopper approves, and is back and signed in", async ({
  page,
  baseURL,
}) => {
  const store = await createStore(page.request);
  const signIns = await openLogin(page, baseURL ?? "", store.id);

  // What the app shows of the order: the text the service sent.
  await expect(page.getByRole("heading", { name: "Logga in i Glide" })).toBeVisible();
  // The demo's phone users meet this page too: it passes the same checks as the shopper's pages.
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.getByLabel("Testperson").selectOption("199001012385");
  await page.getByRole("button", { name: "Identifiera" }).click();

  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  expect(new URL(page.url()).origin).toBe(baseURL);
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("glide_user_name"))).toBe("Erik Svensson");
  expect(signIns).toHaveLength(1);
});

test("cancelling in the simulator's app goes back to the login page with BankID's message", async ({
  page,
  baseURL,
}) => {
  const store = await createStore(page.request);
  await openLogin(page, baseURL ?? "", store.id);
  await page.getByRole("button", { name: "Avbryt" }).click();

  await expect(page).toHaveURL(`${baseURL}/customer/login?store_id=${store.id}`);
  await expect(page.getByRole("alert")).toHaveText("Åtgärden avbröts.");
  await expect(page.getByRole("button", { name: "Försök igen" })).toBeVisible();
});

test("opened under another host name than PUBLIC_URL, the sign-in returns there and does not start over", async ({
  page,
  baseURL,
}) => {
  // The server's PUBLIC_URL is http://localhost:<port>; the shopper uses the address instead.
  const other = (baseURL ?? "").replace("//localhost:", "//127.0.0.1:");
  expect(other).not.toBe(baseURL);
  const store = await createStore(page.request);
  const signIns = await openLogin(page, other, store.id);

  await page.getByLabel("Testperson").selectOption("198112189876");
  await page.getByRole("button", { name: "Identifiera" }).click();

  await expect(page).toHaveURL(`${other}/customer/qr-entry`, { timeout: 10_000 });
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("glide_user_name"))).toBe("Anna Andersson");
  expect(signIns).toHaveLength(1);
});

test("a link whose token names no order says so in the app", async ({ page }) => {
  await page.goto(`http://localhost:${simulatorPort}/app?autostarttoken=00000000-0000-4000-8000-000000000000`);
  await expect(page.getByRole("status")).toHaveText("Ingen pågående identifiering för den här länken.");
  await expect(page.getByRole("button", { name: "Identifiera" })).toBeHidden();
});
