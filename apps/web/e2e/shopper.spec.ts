import type { Page } from "@playwright/test";
import { createStore, expect, isPhone, test } from "./fixtures.ts";
import { SIMULATOR_CONTROL_URL } from "./playwright.config.ts";

/** One of the BankID simulator's test identities. */
const PERSONAL_NUMBER = "198112189876";

/** The page's next BankID start, read from its own call. */
function nextSignIn(page: Page): Promise<{ order_ref: string; auto_start_token: string }> {
  return page
    .waitForResponse((r) => r.url().endsWith("/api/v1/auth/init") && r.request().method() === "POST")
    .then((r) => r.json());
}

/** Plays the shopper's BankID app through the simulator's control API. */
async function bankIdApp(page: Page, orderRef: string, action: "approve" | "cancel" | "scan", qr?: string) {
  const body = action === "approve" ? { personalNumber: PERSONAL_NUMBER } : action === "scan" ? { qr } : {};
  const answer = await page.request.post(`${SIMULATOR_CONTROL_URL}/api/orders/${orderRef}/${action}`, { data: body });
  expect(answer.ok(), await answer.text()).toBe(true);
}

test.beforeEach(async ({ page }) => {
  // On a phone the login page opens the BankID app (a universal link). A 204 answer keeps the page
  // where it is, as the real app opening over the browser would.
  await page.route("https://app.bankid.com/**", (route) => route.fulfill({ status: 204 }));
});

test("phone: the store's page, BankID on the same phone, the door scanner, then the shop", async ({ page }) => {
  test.skip(!isPhone(page), "BankID on the same device is the phone's path");
  const store = await createStore(page.request);
  const appOpened = page.waitForRequest(/^https:\/\/app\.bankid\.com\//);

  await page.goto(`/customer?store_id=${store.id}`);
  await expect(page.getByRole("heading", { name: "Välkommen till Glide" })).toBeVisible();
  const storeCard = page.getByRole("region", { name: "Din butik" });
  await expect(storeCard.getByRole("heading", { name: store.name })).toBeVisible();
  await expect(storeCard).toContainText("Storgatan 1, Testköping");
  await expect(page.getByRole("listitem")).toHaveCount(3);

  const signIn = nextSignIn(page);
  await page.getByRole("link", { name: "Test Demo (Hoppa över QR)" }).click();
  await expect(page).toHaveURL(`/customer/login?store_id=${store.id}`);
  const order = await signIn;

  // The page opened the BankID app on this phone with the order's autostart token.
  expect((await appOpened).url()).toBe(
    `https://app.bankid.com/?autostarttoken=${order.auto_start_token}&redirect=null`,
  );
  await expect(page.getByRole("link", { name: "Öppna BankID" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR-kod för BankID" })).toHaveCount(0);
  await bankIdApp(page, order.order_ref, "approve");

  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  // The test server's entry QR is valid for 20 s.
  await expect(page.getByRole("timer")).toHaveText(/^0:(1\d|20)$/);

  // The store's door scanner reads the QR code.
  const entry = await page.evaluate(() => ({
    session_id: localStorage.getItem("session_id"),
    session_token: localStorage.getItem("session_token"),
    store_id: localStorage.getItem("store_id"),
  }));
  expect(entry.store_id).toBe(store.id);
  const scan = await page.request.post("/api/v1/sessions/door/scan", {
    data: entry,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(scan.ok(), await scan.text()).toBe(true);

  await expect(page.getByText("Dörr öppnad! Välkommen in!")).toBeVisible();
  await expect(page).toHaveURL(/\/customer\/shop$/);
  await expect(page.getByText("Glide", { exact: true })).toBeVisible();
  await expect(page.getByText("Plocka produkter fritt")).toBeVisible();
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect(page.getByText("Plocka produkter så läggs de till automatiskt")).toBeVisible();
});

test("desktop: the animated BankID QR code is scanned, then the test button opens the door", async ({ page }) => {
  test.skip(isPhone(page), "the QR code is for signing in on a computer");
  const store = await createStore(page.request);

  const signIn = nextSignIn(page);
  await page.goto(`/customer/login?store_id=${store.id}`);
  const order = await signIn;
  await expect(page.getByRole("heading", { name: "Logga in" })).toBeVisible();
  await expect(page.getByText(`Logga in med BankID för att komma in i ${store.name}.`)).toBeVisible();

  const qr = page.getByRole("img", { name: "QR-kod för BankID" });
  await expect(qr).toHaveAttribute("src", /^data:image\/png;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => [img.width, img.height])).toEqual([256, 256]);
  // A new code every second.
  const first = await qr.getAttribute("src");
  await expect(qr).not.toHaveAttribute("src", first ?? "");

  // The phone's BankID app reads the code of this second; the browser's device cookie goes along.
  const current = await page.request.get(`/api/v1/auth/qr/${order.order_ref}`);
  expect(current.ok()).toBe(true);
  await bankIdApp(page, order.order_ref, "scan", ((await current.json()) as { qr_code_data: string }).qr_code_data);
  await expect(
    page.getByText("Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under."),
  ).toBeVisible();
  await bankIdApp(page, order.order_ref, "approve");

  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  await page.getByRole("button", { name: "Test: Öppna Dörr" }).click();
  await expect(page.getByText("Dörr öppnad! Välkommen in!")).toBeVisible();
  await expect(page).toHaveURL(/\/customer\/shop$/);
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();

  // An expired access token is renewed with the refresh token, and the call is made again.
  await page.evaluate(() => localStorage.setItem("glide_access_token", "expired"));
  const refreshed = page.waitForResponse((r) => r.url().endsWith("/api/v1/auth/refresh") && r.ok());
  await page.reload();
  await refreshed;
  await expect(page.getByText("Kundvagnen är tom")).toBeVisible();
  await expect(page).toHaveURL(/\/customer\/shop$/);
  expect(await page.evaluate(() => localStorage.getItem("glide_access_token"))).not.toBe("expired");
});

test("cancelling in the BankID app shows BankID's message, and a new try starts a new order", async ({ page }) => {
  const store = await createStore(page.request);
  const signIn = nextSignIn(page);
  await page.goto(`/customer/login?store_id=${store.id}`);
  const order = await signIn;
  await expect(page.getByRole("status").filter({ hasText: /BankID/ })).toBeVisible();

  await bankIdApp(page, order.order_ref, "cancel");
  await expect(page.getByRole("alert")).toHaveText("Åtgärden avbröts.");

  const again = nextSignIn(page);
  await page.getByRole("button", { name: "Försök igen" }).click();
  expect((await again).order_ref).not.toBe(order.order_ref);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(
    isPhone(page)
      ? page.getByRole("link", { name: "Öppna BankID" })
      : page.getByRole("img", { name: "QR-kod för BankID" }),
  ).toBeVisible();
});

test("the entry QR code runs out and the shopper starts over", async ({ page }) => {
  // The test server's entry QR code is valid for 20 s; the page counts down by the browser's clock, which
  // this test moves on instead of waiting.
  await page.clock.install();
  const store = await createStore(page.request);
  await page.goto(`/customer/login?store_id=${store.id}`);
  await page.getByRole("button", { name: "Quick Dev Login" }).click();
  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("timer")).toHaveText(/^0:(1\d|20)$/);

  // Without the server's dev tools the test button cannot open the door; the scanner's own message is not shown.
  await page.route("**/api/v1/sessions/door/scan", (route) =>
    route.fulfill({
      status: 401,
      json: { detail: "The door scanner must send its device key", code: "device_key_required" },
    }),
  );
  await page.getByRole("button", { name: "Test: Öppna Dörr" }).click();
  await expect(page.getByRole("alert")).toHaveText("Kunde inte öppna dörr");

  // The door has not opened: the shop sends the shopper back to the QR code.
  await page.goto("/customer/shop");
  await expect(page).toHaveURL(/\/customer\/qr-entry$/);

  await page.clock.fastForward("00:21");
  await expect(page.getByRole("alert")).toHaveText("QR-koden har gått ut. Vänligen börja om.");
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toHaveCount(0);
  const cancelled = page.waitForResponse(
    (r) => r.request().method() === "DELETE" && r.url().includes("/api/v1/sessions/entry/"),
  );
  await page.getByRole("button", { name: "Börja om" }).click();
  expect((await cancelled).status()).toBe(204);
  await expect(page).toHaveURL(`/customer?store_id=${store.id}`);
  expect(await page.evaluate(() => localStorage.getItem("session_id"))).toBeNull();
});

test("Avbryt on the entry QR code revokes it on the server, not only on the phone", async ({ page }) => {
  const store = await createStore(page.request);
  await page.goto(`/customer/login?store_id=${store.id}`);
  await page.getByRole("button", { name: "Quick Dev Login" }).click();
  await expect(page).toHaveURL(/\/customer\/qr-entry$/, { timeout: 10_000 });
  await expect(page.getByRole("img", { name: "QR-kod för inträde i butiken" })).toBeVisible();
  const saved = await page.evaluate(() => ({
    entry: {
      session_id: localStorage.getItem("session_id"),
      session_token: localStorage.getItem("session_token"),
      store_id: localStorage.getItem("store_id"),
    },
    accessToken: localStorage.getItem("glide_access_token"),
  }));
  expect(saved.entry.store_id).toBe(store.id);

  const cancelled = page.waitForResponse(
    (r) => r.request().method() === "DELETE" && r.url().endsWith(`/api/v1/sessions/entry/${saved.entry.session_id}`),
  );
  await page.getByRole("button", { name: "Avbryt" }).click();
  expect((await cancelled).status()).toBe(204);
  await expect(page).toHaveURL(`/customer?store_id=${store.id}`);
  expect(await page.evaluate(() => localStorage.getItem("session_token"))).toBeNull();

  // A copy of the code (a screenshot) opens nothing: not through the page's test path, not at the scanner.
  const viaTestButton = await page.request.post("/api/v1/sessions/door/scan", {
    data: saved.entry,
    headers: { Authorization: `Bearer ${saved.accessToken}` },
  });
  expect(viaTestButton.status()).toBe(403);
  expect(await viaTestButton.json()).toEqual({ detail: "Ogiltig QR-kod.", code: "invalid_token" });
  const atTheDoor = await page.request.post("/api/v1/sessions/door/scan", {
    data: saved.entry,
    headers: { Authorization: `Device ${store.doorKey}` },
  });
  expect(atTheDoor.status()).toBe(403);
});

test("the development aids show only when the server has them on", async ({ page }) => {
  const store = await createStore(page.request);
  await page.goto(`/customer/login?store_id=${store.id}`);
  await expect(page.getByRole("button", { name: "Quick Dev Login" })).toBeVisible();
  // Wait until the order has started: on a phone the page then hands over to
  // the BankID app once, and a reload racing that hand-over is aborted.
  const bankId = isPhone(page)
    ? page.getByRole("link", { name: "Öppna BankID" })
    : page.getByRole("img", { name: "QR-kod för BankID" });
  await expect(bankId).toBeVisible();

  await page.route("**/api/v1/public/config", (route) =>
    route.fulfill({ json: { dev_tools: false, bankid_app_url: "https://app.bankid.com/", card_page_url: null } }),
  );
  await page.reload();
  // BankID goes on as before, without the aid.
  await expect(bankId).toBeVisible();
  await expect(page.getByRole("button", { name: "Quick Dev Login" })).toHaveCount(0);
});

test("the shop lets no one in without a visit", async ({ page }) => {
  await page.goto("/customer/shop");
  await expect(page).toHaveURL(/\/customer$/);
  await expect(page.getByRole("heading", { name: "Välkommen till Glide" })).toBeVisible();
});

test("pages that lack what they need say so in Swedish", async ({ page }) => {
  await page.goto("/customer/qr-entry");
  await expect(page.getByRole("alert")).toHaveText("Session saknas. Vänligen logga in igen.");

  await page.goto("/customer/login");
  await expect(page.getByRole("alert")).toHaveText("Store ID saknas");

  await page.goto("/customer?store_id=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert")).toHaveText("Butiken finns inte.");

  const closed = await createStore(page.request, { active: false });
  await page.goto(`/customer?store_id=${closed.id}`);
  await expect(page.getByRole("region", { name: "Din butik" })).toContainText("Butiken är stängd just nu.");
  await page.getByRole("link", { name: "Test Demo (Hoppa över QR)" }).click();
  await expect(page.getByRole("alert")).toHaveText("Butiken är stängd just nu.");

  await page.goto("/customer/no-such-page");
  await expect(page.getByRole("heading", { name: "Sidan hittades inte" })).toBeVisible();
  await page.getByRole("link", { name: "Till startsidan" }).click();
  await expect(page).toHaveURL(/\/customer$/);
});

test("the theme is dark at first, switchable, and remembered", async ({ page }) => {
  await page.goto("/customer");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-shopper-theme", "dark");
  await page.getByRole("button", { name: "Byt till ljust tema" }).click();
  await expect(html).toHaveAttribute("data-shopper-theme", "light");
  await page.reload();
  await expect(html).toHaveAttribute("data-shopper-theme", "light");
  await page.getByRole("button", { name: "Byt till mörkt tema" }).click();
  await expect(html).toHaveAttribute("data-shopper-theme", "dark");
});

test("the phone downloads the shopper app compressed, and none of the console", async ({ page }) => {
  const files: { path: string; encoding: string | undefined }[] = [];
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (/\.(?:js|css)$/.test(pathname))
      files.push({ path: pathname, encoding: response.headers()["content-encoding"] });
  });
  await page.goto("/customer");
  await expect(page.getByRole("heading", { name: "Välkommen till Glide" })).toBeVisible();
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(file.encoding, file.path).toBe("br");
  // The console's page and its entry script are another build: the shopper's page never loads it.
  const consolePage = await (await page.request.get("/login")).text();
  const consoleEntry = consolePage.match(/<script[^>]*src="([^"]+)"/)?.[1];
  expect(consoleEntry).toMatch(/^\/assets\/.+\.js$/);
  expect(files.map((f) => f.path)).not.toContain(consoleEntry);
});
