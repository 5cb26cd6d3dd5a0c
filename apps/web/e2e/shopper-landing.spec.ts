import { createStore, expect, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import { shopInStore } from "./support/sales.ts";
import { createProduct } from "./support/shopping.ts";
import { openAsShopper, signInNewShopper } from "./support/unpaid.ts";

const INVALID = "Länken leder inte till någon butik. Skanna QR-koden vid butikens dörr igen.";

test("a store link that names no store says so in Swedish, on the landing and the login page", async ({ page }) => {
  for (const storeId of ["nope", "123e4567-e89b-12d3-a456-42661417400"]) {
    await page.goto(`/customer?store_id=${storeId}`);
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    await expect(page.getByText(/store_id|UUID/)).toHaveCount(0);
  }
  await page.goto("/customer/login?store_id=nope");
  await expect(page.getByRole("alert").filter({ hasText: INVALID })).toBeVisible();

  // A well-formed id still asks the server, whose answer is Swedish too.
  await page.goto("/customer?store_id=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert")).toHaveText("Butiken finns inte.");
});

test("the public store route answers a malformed id in Swedish, naming no field", async ({ request }) => {
  const res = await request.get("/api/v1/public/stores/nope");
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ detail: INVALID, code: "invalid_store_id" });
});

test("signing out on the landing page ends the sign-in on the server, not only on the phone", async ({ page }) => {
  const login = await page.request.post("/api/v1/auth/dev-login");
  expect(login.ok(), await login.text()).toBe(true);
  const tokens = (await login.json()) as { access_token: string; refresh_token: string; user: { id: string } };
  await page.goto("/customer/not-a-page");
  await page.evaluate((t) => {
    localStorage.setItem("glide_access_token", t.access_token);
    localStorage.setItem("auth_token", t.access_token);
    localStorage.setItem("glide_refresh_token", t.refresh_token);
    localStorage.setItem("glide_user_id", t.user.id);
  }, tokens);
  await page.goto("/customer?store_id=demo");
  await expect(page.getByRole("link", { name: "Mina kvitton" })).toBeVisible();
  await page.getByRole("button", { name: "Logga ut" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Du är utloggad." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logga ut" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Mina kvitton" })).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem("glide_refresh_token"))).toBeNull();
  // Someone who copied the tokens off the phone has nothing: both are refused.
  const profile = await page.request.get("/api/v1/profile", {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
  });
  expect(profile.status()).toBe(401);
  const refresh = await page.request.post("/api/v1/auth/refresh", { data: { refresh_token: tokens.refresh_token } });
  expect(refresh.status()).toBe(401);
});

test("a shopper inside the store is not offered to sign out: the exit needs the sign-in", async ({ page }) => {
  const login = await page.request.post("/api/v1/auth/dev-login");
  const tokens = (await login.json()) as { access_token: string; refresh_token: string };
  await page.goto("/customer/not-a-page");
  await page.evaluate((t) => {
    localStorage.setItem("glide_access_token", t.access_token);
    localStorage.setItem("glide_refresh_token", t.refresh_token);
    localStorage.setItem("session_id", "00000000-0000-4000-8000-000000000001");
  }, tokens);
  await page.goto("/customer?store_id=demo");
  await expect(page.getByRole("link", { name: "Mina kvitton" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logga ut" })).toHaveCount(0);
});

test("a shopper inside a store finds the way back: 'Fortsätt handla' with the store and the cart's total", async ({
  page,
}) => {
  const store = await createStore(page.request);
  const oats = await createProduct(page.request, { price: 31.45, name: unique("Havregryn") });
  const salt = await createProduct(page.request, { price: 17.8, name: unique("Flingsalt") });
  // A shopper of the test's own: the dev-login one is inside other specs' stores.
  const who = await signInNewShopper(page);

  // Signed in, no visit: nothing to go back to.
  const asked = page.waitForResponse((r) => r.url().endsWith("/api/v1/visits/open"));
  await openAsShopper(page, who, "/customer");
  expect(await (await asked).json()).toBeNull();
  await expect(page.getByRole("link", { name: "Mina kvitton" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Fortsätt handla" })).toHaveCount(0);

  // Inside the store, on a phone that has forgotten the visit (another tab, a cleared page): the server knows it.
  const visit = await shopInStore(page, who, store, [oats.barcode, oats.barcode, salt.barcode]);
  expect(await page.evaluate(() => localStorage.getItem("session_id"))).toBeNull();
  await page.reload();
  const current = page.getByRole("region", { name: "Ditt pågående besök" });
  await expect(current).toContainText(`Du handlar i ${store.name}`);
  await expect(current).toContainText("3 st i kundvagnen");
  await expect(current.getByTestId("open-visit-total")).toHaveText("80,70 kr");
  await expectAccessible(page, "the start page with a visit in progress");

  await current.getByRole("link", { name: "Fortsätt handla" }).click();
  await expect(page).toHaveURL(/\/customer\/shop$/);
  await expect(page.getByRole("listitem").filter({ hasText: oats.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Gå till kassan →" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("session_id"))).toBe(visit.session_id);

  // Paid: the visit is over, and the start page no longer offers it.
  const paid = await page.request.post("/api/v1/checkout", { data: { user_id: who.userId }, headers: who.headers });
  expect(paid.ok(), await paid.text()).toBe(true);
  await page.goto("/customer");
  await expect(page.getByRole("link", { name: "Mina kvitton" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Ditt pågående besök" })).toHaveCount(0);
});
