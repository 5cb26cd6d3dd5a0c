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
