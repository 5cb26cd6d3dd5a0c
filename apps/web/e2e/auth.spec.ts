import { expect, openNav, signIn, test } from "./fixtures.ts";
import { E2E_ADMIN } from "./playwright.config.ts";

test("a signed-out visitor is sent to the login page and back after signing in", async ({ page }) => {
  await page.goto("/stores");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");

  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/stores$/);
  await expect(page.getByRole("heading", { name: "Stores", exact: true })).toBeVisible();
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
  await openNav(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
});

test("a fresh load of the console logs no error: nobody signed in is an answer (204), not a failed request", async ({
  page,
}) => {
  // Every error, the browser's own "Failed to load resource" included (the fixture lets a handled 4xx through).
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  const me = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/v1/admin/me");
  await page.goto("/products?search=mjölk");
  expect((await me).status()).toBe(204);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  // Signed in, a fresh load shows the console, again without an error.
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/products\?search=mj/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Global Product Database" })).toBeVisible();
  expect(errors).toEqual([]);
});
