import type { Locator } from "@playwright/test";
import { expect, isPhone, openNav, signIn, test } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

const ENTRIES = [
  ["Dashboard", "/", "Platform Dashboard"],
  ["Cameras", "/cameras", "Camera Management"],
  ["Stores", "/stores", "Stores"],
  ["Products", "/products", "Global Product Database"],
  ["Pricing", "/pricing", "Pricing"],
  ["Sessions", "/sessions", "Sessions"],
  ["Analytics", "/analytics", "Analytics"],
  ["Settings", "/settings", "System Settings"],
] as const;

test("the sidebar has its eight entries and marks the active one", async ({ page }) => {
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

test("the theme button says what pressing it does, in words and icon, in both themes", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
  const html = page.locator("html");
  const toDark = page.getByRole("button", { name: "Switch to dark theme", exact: true });
  const toLight = page.getByRole("button", { name: "Switch to light theme", exact: true });

  await openNav(page);
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(toDark.locator("svg.lucide-moon")).toHaveCount(1);
  await expect(toDark.locator("svg.lucide-sun")).toHaveCount(0);
  await expectAccessible(page, "the sidebar, light");

  await toDark.click();
  await expect(html).toHaveClass(/\bdark\b/);
  // Now it offers the way back: the words and the sun both say light.
  await expect(toLight.locator("svg.lucide-sun")).toHaveCount(1);
  await expect(toLight.locator("svg.lucide-moon")).toHaveCount(0);
  await expect(toDark).toHaveCount(0);
  // The name changes with the state, so there is no pressed state to contradict it.
  await expect(toLight).not.toHaveAttribute("aria-pressed");
  await expectAccessible(page, "the sidebar, dark");

  await page.reload();
  await expect(page.getByRole("heading", { name: "Platform Dashboard" })).toBeVisible();
  await expect(html).toHaveClass(/\bdark\b/);
  if (isPhone(page)) {
    await openNav(page);
  } else {
    // Collapsed to icons, the button keeps its name.
    await page.keyboard.press("Control+b");
    await expect(page.locator("[data-sidebar-state]")).toHaveAttribute("data-sidebar-state", "collapsed");
  }
  await toLight.click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(toDark.locator("svg.lucide-moon")).toHaveCount(1);
});

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

async function boxOf(locator: Locator): Promise<Box> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

/** Each list screen's select filters and its pair of day fields, by label. */
const FILTERS = [
  { path: "/sessions", selects: ["Store", "Status"], days: ["Entered from", "Entered to"] },
  { path: "/analytics", selects: ["Date range", "Store"], days: ["From", "To"] },
  { path: "/audit", selects: ["Action"], days: ["From", "To"] },
] as const;

test("the list filters stack full width on a 390 px phone, and sit side by side on a wide screen", async ({ page }) => {
  await signIn(page, "/sessions");
  if (!isPhone(page)) {
    const [store, status] = [
      await boxOf(page.getByLabel("Store", { exact: true })),
      await boxOf(page.getByLabel("Status", { exact: true })),
    ];
    expect(Math.abs(store.y - status.y), "store and status on one line").toBeLessThan(1);
    expect(store.x + store.width).toBeLessThanOrEqual(status.x);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const { path, selects, days } of FILTERS) {
    await page.goto(path);
    const content = await page.locator("main").evaluate((main) => {
      const style = getComputedStyle(main);
      const left = main.getBoundingClientRect().left + Number.parseFloat(style.paddingLeft);
      return {
        left,
        width: main.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight),
      };
    });
    const boxes: [string, Box][] = [];
    for (const label of selects) {
      const box = await boxOf(page.getByLabel(label, { exact: true }));
      expect(Math.abs(box.x - content.left), `${path}: ${label} starts at the left edge`).toBeLessThan(1);
      expect(Math.abs(box.width - content.width), `${path}: ${label} is full width`).toBeLessThan(1);
      boxes.push([label, box]);
    }
    // The day fields share a line, half each, within the screen.
    const [from, to] = [
      await boxOf(page.getByLabel(days[0], { exact: true })),
      await boxOf(page.getByLabel(days[1], { exact: true })),
    ];
    expect(Math.abs(from.y - to.y), `${path}: the days on one line`).toBeLessThan(1);
    expect(Math.abs(from.x - content.left)).toBeLessThan(1);
    expect(Math.abs(to.x + to.width - (content.left + content.width))).toBeLessThan(1);
    expect(from.width, `${path}: a day field is not squeezed`).toBeGreaterThan(content.width / 2 - 10);
    boxes.push([days[0], from], [days[1], to]);
    for (const [i, [a, boxA]] of boxes.entries()) {
      for (const [b, boxB] of boxes.slice(i + 1))
        expect(overlap(boxA, boxB), `${path}: ${a} and ${b} overlap`).toBe(false);
    }
  }
  await expectAccessible(page, "the audit log's filters at 390 px");
});
