import { expect, test } from "./fixtures.ts";

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
