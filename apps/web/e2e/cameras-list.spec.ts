import type { Route } from "@playwright/test";
import { createStore, expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import {
  apiCamera,
  apiSystem,
  card,
  cleanUp,
  escapeRegExp,
  expectNoSidewaysScroll,
  group,
  NO_DEVICE,
  openCameras,
  toast,
} from "./support/cameras.ts";

// Camera Management's list: a group per store, search, the empty and failed states, collapsed groups.

test("search finds systems by name, brand or host, cameras by name or zone, and a store by its name", async ({
  page,
}) => {
  await signIn(page);
  const first = await createStore(page.request);
  const second = await createStore(page.request);
  const nvr = await apiSystem(page.request, first, unique("Kassa NVR"));
  const door = await apiCamera(page.request, {
    store: first,
    system: nvr,
    name: unique("Kassakamera"),
    zone: "checkout",
  });
  const shelf = await apiCamera(page.request, { store: first, system: nvr, name: unique("Hyllkamera"), index: 2 });
  const other = await apiCamera(page.request, { store: second, name: unique("Utgångskamera"), zone: "exit" });
  try {
    await openCameras(page);
    const search = page.getByRole("searchbox", { name: "Search cameras" });
    const firstGroup = group(page, first.name);
    const secondGroup = group(page, second.name);
    await expect(card(firstGroup, nvr.name)).toBeVisible();
    await expect(card(secondGroup, other.name)).toBeVisible();

    // A system by its name: shown with all its cameras; the other store's group goes.
    await search.fill(nvr.name);
    await expect(card(firstGroup, door.name)).toBeVisible();
    await expect(card(firstGroup, shelf.name)).toBeVisible();
    await expect(secondGroup).toHaveCount(0);
    await expect(page).toHaveURL(/search=/);

    // A camera by its name: its system stays, its sibling goes.
    await search.fill(shelf.name);
    await expect(card(firstGroup, nvr.name)).toBeVisible();
    await expect(card(firstGroup, shelf.name)).toBeVisible();
    await expect(card(firstGroup, door.name)).toHaveCount(0);

    // A camera by its zone, a standalone one included.
    await search.fill("exit");
    await expect(card(secondGroup, other.name)).toBeVisible();
    await expect(card(page, door.name)).toHaveCount(0);

    // A store by its name keeps its whole group.
    await search.fill(second.name);
    await expect(card(secondGroup, other.name)).toBeVisible();
    await expect(firstGroup).toHaveCount(0);

    // The host, then the brand.
    await search.fill(NO_DEVICE.host);
    await expect(card(firstGroup, nvr.name)).toBeVisible();
    await search.fill("HIKVISION");
    await expect(card(firstGroup, nvr.name)).toBeVisible();

    // Nothing: the empty state says to change the search.
    await search.fill("ingen kamera heter så här");
    await expect(page.getByText("No cameras found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add Your First System" })).toHaveCount(0);

    // The search survives a reload: it is in the address.
    await search.fill(door.name);
    await expect.poll(() => new URL(page.url()).searchParams.get("search")).toBe(door.name);
    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search cameras" })).toHaveValue(door.name);
    await expect(card(page, door.name)).toBeVisible();
    await expect(card(page, shelf.name)).toHaveCount(0);
  } finally {
    await cleanUp(page.request, [first, second]);
  }
});

test("every store the admin can see has its group, one without systems too, to add a system to", async ({ page }) => {
  await signIn(page);
  if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
  const empty = await createStore(page.request);
  const equipped = await createStore(page.request);
  const nvr = await apiSystem(page.request, equipped);
  const systemName = unique("Ny NVR");
  try {
    const listed = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/v1/stores/");
    await openCameras(page);
    // Every store the server lists for this admin, each once.
    const stores = (await (await listed).json()) as { id: string; name: string }[];
    expect(stores.map((store) => store.id)).toEqual(expect.arrayContaining([empty.id, equipped.id]));
    for (const store of stores) await expect(group(page, store.name).first()).toBeVisible();
    await expect(card(group(page, equipped.name), nvr.name)).toBeVisible();
    const emptyGroup = group(page, empty.name);
    await expect(emptyGroup).toContainText("0 systems");
    await expect(emptyGroup).toContainText("0 cameras");
    await expect(emptyGroup.getByText("No camera systems in this store yet.")).toBeVisible();
    await expect(emptyGroup.getByText(/Online|Offline/)).toHaveCount(0);
    await expectNoSidewaysScroll(page);

    // Add System to Store: the new system lands in that store.
    await emptyGroup.getByRole("button", { name: "Add System to Store" }).click();
    const add = page.getByRole("dialog", { name: "Add Camera System" });
    await add.getByLabel("System Name *").fill(systemName);
    await add.getByRole("tab", { name: "Connection" }).click();
    await add.getByLabel("Host / IP Address *").fill(NO_DEVICE.host);
    await add.getByLabel("Port *").fill(String(NO_DEVICE.port));
    await add.getByRole("button", { name: "Create System" }).click();
    await expect(toast(page, "Camera system created successfully")).toBeVisible();
    await expect(card(emptyGroup, systemName)).toBeVisible();
    await expect(emptyGroup).toContainText("1 system");
    await expect(emptyGroup.getByText("No camera systems in this store yet.")).toHaveCount(0);

    // A search leaves out the stores it does not find; a store found by its name keeps its group.
    const search = page.getByRole("searchbox", { name: "Search cameras" });
    await search.fill(nvr.name);
    await expect(group(page, equipped.name)).toBeVisible();
    await expect(emptyGroup).toHaveCount(0);
    await search.fill(empty.name);
    await expect(emptyGroup).toBeVisible();
    await expect(group(page, equipped.name)).toHaveCount(0);
  } finally {
    await cleanUp(page.request, [empty, equipped]);
  }
});

test("a store admin's page has the groups of their stores only", async ({ page }) => {
  await signIn(page);
  const theirs = await createStore(page.request);
  const other = await createStore(page.request);
  const foreign = await apiSystem(page.request, other);
  try {
    // What the server answers a store admin of `theirs` (its own rules are tested in the server's tests).
    const only = async (route: Route, keep: (row: { id: string; store_id?: string | null }) => boolean) => {
      if (route.request().method() !== "GET") return route.fallback();
      const rows = (await (await route.fetch()).json()) as { id: string; store_id?: string | null }[];
      return route.fulfill({ json: rows.filter(keep) });
    };
    await page.route(
      (url) => url.pathname === "/api/v1/stores/",
      (route) => only(route, (row) => row.id === theirs.id),
    );
    for (const path of ["/api/v1/cameras/systems", "/api/v1/cameras/cameras"]) {
      await page.route(
        (url) => url.pathname === path,
        (route) => only(route, (row) => row.store_id === theirs.id),
      );
    }
    await openCameras(page);
    await expect(group(page, theirs.name).getByRole("button", { name: "Add System to Store" })).toBeVisible();
    const groups = page.getByRole("region").filter({ has: page.getByRole("button", { name: "Add System to Store" }) });
    await expect(groups).toHaveCount(1);
    await expect(group(page, "Unassigned")).toHaveCount(0);
    await expect(group(page, other.name)).toHaveCount(0);
    await expect(card(page, foreign.name)).toHaveCount(0);
  } finally {
    await cleanUp(page.request, [theirs, other]);
  }
});

test("with nothing to show, the page offers to add the first system", async ({ page }) => {
  await signIn(page);
  // As a fresh installation would answer, whatever other specs have added.
  await page.route("**/api/v1/cameras/systems", (route) =>
    route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.fallback(),
  );
  await page.route("**/api/v1/cameras/cameras", (route) =>
    route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.fallback(),
  );
  await openCameras(page);
  await expect(page.getByText("No cameras found")).toBeVisible();
  await expect(page.getByText("Get started by adding a camera system")).toBeVisible();
  await page.getByRole("button", { name: "Add Your First System" }).click();
  await expect(page.getByRole("dialog", { name: "Add Camera System" })).toBeVisible();
});

test("a list that cannot be read says so, and Try again reads it again", async ({ page }) => {
  await signIn(page);
  await page.route("**/api/v1/cameras/systems", (route) =>
    route.request().method() === "GET"
      ? route.fulfill({ status: 403, json: { detail: "You may not read camera systems", code: "forbidden" } })
      : route.fallback(),
  );
  await openCameras(page);
  const banner = page.getByRole("alert").filter({ hasText: "Failed to load camera data" });
  await expect(banner).toContainText("You may not read camera systems");
  await page.unroute("**/api/v1/cameras/systems");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(banner).toBeHidden();
});

test("groups keep their collapsed state after a reload, and a deleted store's systems are Unassigned", async ({
  page,
}) => {
  await signIn(page);
  const kept = await createStore(page.request);
  const closed = await createStore(page.request);
  const gone = await createStore(page.request);
  const keptSystem = await apiSystem(page.request, kept);
  const closedSystem = await apiSystem(page.request, closed);
  const orphan = await apiSystem(page.request, gone);
  expect((await page.request.delete(`/api/v1/stores/${gone.id}`)).ok()).toBe(true);
  try {
    await openCameras(page);
    const toggle = (name: string) =>
      group(page, name).getByRole("button", { name: new RegExp(`^${escapeRegExp(name)}`) });
    await expect(toggle(closed.name)).toHaveAttribute("aria-expanded", "true");
    await toggle(closed.name).click();
    await expect(toggle(closed.name)).toHaveAttribute("aria-expanded", "false");
    await expect(card(page, closedSystem.name)).toBeHidden();

    await page.reload();
    await expect(toggle(closed.name)).toHaveAttribute("aria-expanded", "false");
    await expect(card(page, closedSystem.name)).toBeHidden();
    await expect(toggle(kept.name)).toHaveAttribute("aria-expanded", "true");
    await expect(card(page, keptSystem.name)).toBeVisible();

    // Unassigned comes last, without a store to add to.
    const unassigned = group(page, "Unassigned");
    await expect(card(unassigned, orphan.name)).toBeVisible();
    await expect(unassigned.getByRole("button", { name: "Add System to Store" })).toHaveCount(0);
    await expect(group(page, kept.name).getByRole("button", { name: "Add System to Store" })).toBeVisible();

    // Keyboard: the header toggles with Enter.
    await toggle(closed.name).focus();
    await page.keyboard.press("Enter");
    await expect(toggle(closed.name)).toHaveAttribute("aria-expanded", "true");
    await expect(card(page, closedSystem.name)).toBeVisible();
  } finally {
    await cleanUp(page.request, [kept, closed], [orphan]);
    await page.evaluate(() => localStorage.removeItem("cameras_collapsed_groups"));
  }
});
