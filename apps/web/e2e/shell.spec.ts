import { expect, isPhone, openNav, signIn, test } from "./fixtures.ts";

const ENTRIES = [
  ["Dashboard", "/", "Platform Dashboard"],
  ["Cameras", "/cameras", "Camera Management"],
  ["Stores", "/stores", "Stores"],
  ["Products", "/products", "Global Product Database"],
  ["Sessions", "/sessions", "Sessions"],
  ["Analytics", "/analytics", "Analytics"],
  ["Settings", "/settings", "System Settings"],
] as const;

test("the sidebar has the seven entries and marks the active one", async ({ page }) => {
  await signIn(page);
  await expect(page.getByText("Admin", { exact: true }).first()).toBeVisible({ visible: !isPhone(page) });
  for (const [title, path, heading] of ENTRIES) {
    await openNav(page);
    const link = page.getByRole("link", { name: title, exact: true });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : `${path}$`}`));
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    // Each screen names itself in the browser's tab and history.
    await expect(page).toHaveTitle(`${title} · Glide`);
    // Every screen is built: Sessions and Analytics were "Coming soon..." placeholders once.
    await expect(page.getByText("Coming soon...")).toHaveCount(0);
    await openNav(page);
    await expect(page.getByRole("link", { name: title, exact: true })).toHaveAttribute("aria-current", "page");
    if (isPhone(page)) await page.keyboard.press("Escape");
  }
});

test("Ctrl+B toggles the sidebar and the cookie remembers it", async ({ page, context }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
  const nav = page.getByRole("link", { name: "Stores", exact: true });
  const cookie = async () => (await context.cookies()).find((c) => c.name === "sidebar_state");

  if (isPhone(page)) {
    // Below 768 px the sidebar is an overlay panel, closed until asked for.
    await expect(nav).toBeHidden();
    await page.keyboard.press("Control+b");
    await expect(nav).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    return;
  }

  const sidebar = page.locator("[data-sidebar-state]");
  await expect(sidebar).toHaveAttribute("data-sidebar-state", "expanded");
  await page.keyboard.press("Control+b");
  await expect(sidebar).toHaveAttribute("data-sidebar-state", "collapsed");
  const saved = await cookie();
  expect(saved?.value).toBe("false");
  // Seven days, give or take the seconds this test took.
  expect((saved?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 120);

  await page.reload();
  await expect(sidebar).toHaveAttribute("data-sidebar-state", "collapsed");
  await page.keyboard.press("Meta+b");
  await expect(sidebar).toHaveAttribute("data-sidebar-state", "expanded");
  expect((await cookie())?.value).toBe("true");
});

test("an unknown page shows the 404 page and Go Home returns to the dashboard", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Sign in · Glide");
  await signIn(page);
  await expect(page).toHaveTitle("Dashboard · Glide");
  await page.goto("/no/such/page");
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Page Not Found · Glide");
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(
    page.getByText("Sorry, the page you are looking for doesn't exist. It may have been moved or deleted."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
  await expect(page).toHaveTitle("Dashboard · Glide");
});
