import { spawn } from "node:child_process";
import path from "node:path";
import { CAMERA_LIMITS } from "@glide/contracts";
import type { APIRequestContext, Locator, Page, Route } from "@playwright/test";
import { createStore, expect, isPhone, signIn, type TestStore, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";

/** No device listens on the discard port: systems pointing there are simply offline. */
const NO_DEVICE = { host: "127.0.0.1", port: 9 };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A store's group: the section named by its heading (store name, then address). */
const group = (page: Page, name: string) => page.getByRole("region", { name: new RegExp(`^${escapeRegExp(name)}`) });
const card = (scope: Page | Locator, name: string) => scope.getByRole("article", { name, exact: true });
const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

interface Made {
  id: string;
  name: string;
}

async function apiSystem(request: APIRequestContext, store: TestStore, name = unique("E2E NVR")): Promise<Made> {
  const created = await request.post("/api/v1/cameras/systems", {
    data: { name, ...NO_DEVICE, store_id: store.id, brand: "hikvision", type: "nvr", connection_type: "rtsp" },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { id: string }).id, name };
}

async function apiCamera(
  request: APIRequestContext,
  data: {
    name?: string;
    store: TestStore;
    system?: Made;
    zone?: string;
    index?: number;
    configured?: { resolution: string; fps: number };
  },
): Promise<Made> {
  const name = data.name ?? unique("E2E Kamera");
  const created = await request.post("/api/v1/cameras/cameras", {
    data: {
      name,
      store_id: data.store.id,
      camera_system_id: data.system?.id ?? null,
      camera_index: data.index ?? 1,
      location_zone: data.zone ?? "aisle",
      ...(data.system ? {} : { stream_url: "rtsp://127.0.0.1:9/stream1" }),
      ...data.configured,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { id: string }).id, name };
}

/**
 * The test's stores go again with whatever systems and cameras are left in
 * them (first, so nothing is left unassigned), and the systems it names.
 */
async function cleanUp(request: APIRequestContext, stores: TestStore[], systems: Made[] = []) {
  const ids = new Set(stores.map((store) => store.id));
  const inStores = async (path: string) =>
    ((await (await request.get(path)).json()) as { id: string; store_id: string | null }[]).filter(
      (row) => row.store_id !== null && ids.has(row.store_id),
    );
  for (const camera of await inStores("/api/v1/cameras/cameras")) {
    await request.delete(`/api/v1/cameras/cameras/${camera.id}`);
  }
  for (const system of [...(await inStores("/api/v1/cameras/systems")), ...systems]) {
    await request.delete(`/api/v1/cameras/systems/${system.id}`);
  }
  for (const store of stores) await request.delete(`/api/v1/stores/${store.id}`);
}

async function openCameras(page: Page) {
  await page.goto("/cameras");
  await expect(page.getByRole("heading", { name: "Camera Management", level: 1 })).toBeVisible();
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

test("an operator adds a system and its cameras, edits them and sees them grouped by store", async ({ page }) => {
  await signIn(page);
  if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
  const store = await createStore(page.request);
  const systemName = unique("Entré NVR");
  const cameraName = unique("Dörrkamera");
  const standaloneName = unique("Lagerkamera");
  try {
    await openCameras(page);
    await expect(page).toHaveTitle("Cameras · Glide");
    await expect(page.getByRole("searchbox", { name: "Search cameras" })).toHaveAttribute(
      "placeholder",
      "Search stores, systems, and cameras...",
    );

    // Add System: four tabs, the required markers, the defaults from the camera settings.
    await page.getByRole("button", { name: "Add System", exact: true }).click();
    const add = page.getByRole("dialog", { name: "Add Camera System" });
    for (const tab of ["Basic Info", "Connection", "Store", "Settings"]) {
      await expect(add.getByRole("tab", { name: tab })).toBeVisible();
    }
    await add.getByLabel("System Name *").fill(systemName);
    await expect(add.getByLabel("Type", { exact: true })).toHaveValue("nvr");
    await expect(add.getByLabel("Brand")).toHaveValue("hikvision");
    await add.getByLabel("Brand").selectOption("axis");
    await add.getByRole("tab", { name: "Connection" }).click();
    await expect(add.getByLabel("Connection Type")).toHaveValue("rtsp");
    await expect(add.getByLabel("Port *")).toHaveAttribute("placeholder", "554");
    await expect(add.getByLabel("Port *")).toHaveValue("554");
    await expect(add.getByLabel("Password")).toHaveAttribute("type", "password");
    // Test Connection is on edit only (spec §2).
    await expect(add.getByRole("button", { name: "Test Connection" })).toHaveCount(0);
    await add.getByLabel("Host / IP Address *").fill(NO_DEVICE.host);
    await add.getByLabel("Port *").fill(String(NO_DEVICE.port));
    await add.getByLabel("Username").fill("admin");
    await add.getByLabel("Password").fill("hemligt");
    await add.getByRole("tab", { name: "Store" }).click();
    await add.getByLabel("Store *").selectOption({ label: store.name });
    await add.getByRole("tab", { name: "Settings" }).click();
    await add.getByLabel("Notes").fill("Above the entrance");
    await add.getByRole("button", { name: "Create System" }).click();
    await expect(add).toBeHidden();
    await expect(toast(page, "Camera system created successfully")).toBeVisible();

    const storeGroup = group(page, store.name);
    await expect(storeGroup).toContainText("Storgatan 1, Testköping");
    await expect(storeGroup).toContainText("1 system");
    const system = card(storeGroup, systemName);
    await expect(system).toContainText(`${NO_DEVICE.host}:${NO_DEVICE.port}`);
    await expect(system).toContainText(/axis/i);
    await expect(system).toContainText("0 cameras");

    // Add Camera to System: the camera is in the system's store; the preview waits for the camera to exist.
    await system.getByRole("button", { name: "Add Camera to System" }).click();
    const addCamera = page.getByRole("dialog", { name: "Add Camera" });
    await addCamera.getByLabel("Camera Name *").fill(cameraName);
    await expect(addCamera.getByLabel("Channel / Index")).toHaveValue("1");
    await addCamera.getByLabel("Location Zone").selectOption("entrance");
    await addCamera.getByRole("tab", { name: "Stream" }).click();
    await expect(addCamera.getByLabel("FPS")).toHaveValue("30");
    await expect(addCamera.getByLabel("RTSP Stream URL")).toHaveAttribute(
      "placeholder",
      "/axis-media/media.amp?camera=1",
    );
    await addCamera.getByLabel("Resolution").selectOption("1280x720");
    await addCamera.getByRole("tab", { name: "Preview" }).click();
    await expect(addCamera.getByText("Preview will be available after creating the camera")).toBeVisible();
    await addCamera.getByRole("tab", { name: "Settings" }).click();
    await expect(addCamera.getByLabel("Store", { exact: true })).toBeDisabled();
    await expect(addCamera.getByLabel("Store", { exact: true })).toHaveValue(store.id);
    await expect(addCamera.getByRole("switch", { name: "Active" })).toBeChecked();
    await expect(addCamera.getByRole("switch", { name: "AI Enabled" })).toBeChecked();
    await addCamera.getByRole("switch", { name: "AI Enabled" }).click();
    await addCamera.getByRole("button", { name: "Create Camera" }).click();
    await expect(addCamera).toBeHidden();
    await expect(toast(page, "Camera created successfully")).toBeVisible();
    const camera = card(system, cameraName);
    await expect(camera).toContainText("Entrance");
    await expect(camera).toContainText("1280x720");
    await expect(camera).toContainText("30");
    await expect(system).toContainText("1 camera");

    // A standalone camera, from the header: it needs a store, and shows under Standalone Cameras.
    await page.getByRole("button", { name: "Add Camera", exact: true }).click();
    const standalone = page.getByRole("dialog", { name: "Add Camera" });
    await standalone.getByLabel("Camera Name *").fill(standaloneName);
    await standalone.getByLabel("Location Zone").selectOption("storage");
    await standalone.getByRole("tab", { name: "Stream" }).click();
    await standalone.getByLabel("RTSP Stream URL").fill("rtsp://127.0.0.1:9/lager");
    await standalone.getByRole("tab", { name: "Settings" }).click();
    await expect(standalone.getByLabel("Camera System")).toHaveValue("none");
    await standalone.getByLabel("Store", { exact: true }).selectOption({ label: store.name });
    await standalone.getByRole("button", { name: "Create Camera" }).click();
    await expect(standalone).toBeHidden();
    const standaloneSection = storeGroup.getByRole("region", { name: /^Standalone Cameras/ });
    await expect(standaloneSection.getByRole("heading", { name: "Standalone Cameras" })).toBeVisible();
    await expect(card(standaloneSection, standaloneName)).toBeVisible();
    await expect(storeGroup).toContainText("2 cameras");

    // Edit: the dialogs open filled in; the password is never sent back, and an empty one keeps it.
    await system.getByRole("button", { name: `Edit system ${systemName}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Camera System" });
    await expect(edit.getByLabel("System Name *")).toHaveValue(systemName);
    await edit.getByLabel("System Name *").fill(`${systemName} Nord`);
    await edit.getByRole("tab", { name: "Connection" }).click();
    await expect(edit.getByLabel("Password")).toHaveValue("");
    await expect(edit.getByLabel("Password")).toHaveAccessibleDescription(/A password is saved/);
    // The saved password belongs to its address: the form says so before another address is saved.
    await edit.getByLabel("Port *").fill("8554");
    await expect(edit.getByLabel("Password")).toHaveAccessibleDescription(
      "Changing the address or user name clears the saved password unless you enter it again.",
    );
    await edit.getByLabel("Port *").fill(String(NO_DEVICE.port));
    await expect(edit.getByLabel("Password")).toHaveAccessibleDescription(/A password is saved/);
    await expect(edit.getByRole("button", { name: "Test Connection" })).toBeVisible();
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(edit).toBeHidden();
    await expect(toast(page, "Camera system updated successfully")).toBeVisible();
    const renamed = card(storeGroup, `${systemName} Nord`);
    await expect(renamed).toBeVisible();
    // Focus returns to the button that opened the dialog.
    await expect(renamed.getByRole("button", { name: `Edit system ${systemName} Nord` })).toBeFocused();

    await card(renamed, cameraName).getByRole("button", { name: "Edit" }).click();
    const editCamera = page.getByRole("dialog", { name: "Edit Camera" });
    await expect(editCamera.getByLabel("Camera Name *")).toHaveValue(cameraName);
    await editCamera.getByRole("tab", { name: "Stream" }).click();
    await expect(editCamera.getByLabel("Resolution")).toHaveValue("1280x720");
    await editCamera.getByLabel("FPS").fill("25");
    await editCamera.getByRole("tab", { name: "Preview" }).click();
    await expect(editCamera.getByRole("button", { name: "Show Live Preview" })).toBeVisible();
    await editCamera.getByRole("button", { name: "Save Changes" }).click();
    await expect(editCamera).toBeHidden();
    await expect(toast(page, "Camera updated successfully")).toBeVisible();
    await expect(card(renamed, cameraName)).toContainText("25");

    // The camera's history of status changes opens from its card.
    await card(renamed, cameraName).getByRole("button", { name: "History" }).click();
    const history = page.getByRole("dialog", { name: `${cameraName} History` });
    await expect(history.getByText(/No status changes recorded yet|offline|online/i).first()).toBeVisible();
    await history.getByRole("button", { name: "Close" }).first().click();
    await expect(history).toBeHidden();

    if (isPhone(page)) await expectNoSidewaysScroll(page);

    // One camera from its card, after a question.
    await card(standaloneSection, standaloneName).getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("Are you sure you want to delete this camera?");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Camera deleted successfully")).toBeVisible();
    await expect(card(page, standaloneName)).toHaveCount(0);
  } finally {
    await cleanUp(page.request, [store]);
  }
});

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

test("required fields are marked and every problem is shown beside its field", async ({ page }) => {
  await signIn(page);
  const store = await createStore(page.request);
  // With two stores to choose from, none is chosen for the admin.
  const other = await createStore(page.request);
  try {
    await openCameras(page);
    // A store without systems has no group yet: add from the header.
    await page.getByRole("button", { name: "Add System", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Add Camera System" });
    await expect(dialog.getByLabel("System Name *")).toHaveAttribute("aria-required", "true");
    await expect(dialog.getByLabel("System Name *")).toHaveAttribute("maxlength", "200");

    // Sent empty: the client names the missing name; the server then names the rest.
    await dialog.getByRole("button", { name: "Create System" }).click();
    await expect(dialog.getByLabel("System Name *")).toBeFocused();
    await expect(dialog.getByLabel("System Name *")).toHaveAccessibleDescription("System name is required");
    await expect(dialog.getByRole("tab", { name: /^Connection.*has errors/ })).toBeVisible();

    await dialog.getByLabel("System Name *").fill(unique("Felsystem"));
    await dialog.getByRole("tab", { name: /^Connection/ }).click();
    await expect(dialog.getByLabel("Host / IP Address *")).toHaveAttribute("maxlength", String(CAMERA_LIMITS.host));
    await expect(dialog.getByLabel("Username")).toHaveAttribute("maxlength", String(CAMERA_LIMITS.username));
    await dialog.getByLabel("Host / IP Address *").fill("http://kamera.local/onvif");
    await dialog.getByLabel("Port *").fill("70000");
    await dialog.getByRole("button", { name: "Create System" }).click();

    // The server's reasons beside their fields; the first (Host) is shown and focused; the Store tab is marked too.
    const host = dialog.getByLabel("Host / IP Address *");
    await expect(host).toBeFocused();
    await expect(host).toHaveAttribute("aria-invalid", "true");
    await expect(host).toHaveAccessibleDescription(/Host must be a host name or an IP address/);
    await expect(dialog.getByLabel("Port *")).toHaveAccessibleDescription(
      "Port must be a whole number from 1 to 65535",
    );
    await expect(dialog.getByRole("tab", { name: /^Store.*has errors/ })).toBeVisible();
    // One message per problem, in the dialog: no toast repeats it, and nothing is said above the buttons.
    await expect(toast(page, /Failed/)).toHaveCount(0);
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByRole("tab", { name: /^Store/ }).click();
    await expect(dialog.getByLabel("Store *")).toHaveAccessibleDescription("Store is required");

    await dialog.getByLabel("Store *").selectOption({ label: store.name });
    await dialog.getByRole("tab", { name: /^Connection/ }).click();
    await host.fill(NO_DEVICE.host);
    await dialog.getByLabel("Port *").fill(String(NO_DEVICE.port));
    await dialog.getByRole("button", { name: "Create System" }).click();
    await expect(dialog).toBeHidden();

    // A camera: the fps range comes from the settings and the server holds to it.
    await page.getByRole("button", { name: "Add Camera", exact: true }).click();
    const camera = page.getByRole("dialog", { name: "Add Camera" });
    await expect(camera.getByLabel("Camera Name *")).toHaveAttribute("aria-required", "true");
    // Inputs carry the server's limits, so a name or address cannot be typed past what it takes.
    await expect(camera.getByLabel("Camera Name *")).toHaveAttribute("maxlength", String(CAMERA_LIMITS.name));
    await camera.getByLabel("Camera Name *").fill(unique("Felkamera"));
    await camera.getByRole("tab", { name: "Stream" }).click();
    await expect(camera.getByLabel("RTSP Stream URL")).toHaveAttribute("maxlength", String(CAMERA_LIMITS.stream_url));
    await camera.getByLabel("RTSP Stream URL").fill("rtsp://admin:hemligt@127.0.0.1/stream");
    await camera.getByRole("tab", { name: "Settings" }).click();
    await camera.getByLabel("Store", { exact: true }).selectOption({ label: store.name });
    await camera.getByRole("button", { name: "Create Camera" }).click();
    const streamUrl = camera.getByLabel("RTSP Stream URL");
    await expect(camera.getByRole("tab", { name: /^Stream.*has errors/ })).toHaveAttribute("aria-selected", "true");
    await expect(streamUrl).toBeFocused();
    await expect(streamUrl).toHaveAccessibleDescription(/without user name or password/);
    await expect(toast(page, /Failed/)).toHaveCount(0);

    // The settings' frame-rate range is the server's rule too.
    await streamUrl.fill("rtsp://127.0.0.1:9/stream");
    await camera.getByLabel("FPS").fill("70");
    await camera.getByRole("button", { name: "Create Camera" }).click();
    await expect(camera.getByLabel("FPS")).toHaveAttribute("aria-invalid", "true");
    await expect(camera.getByLabel("FPS")).toHaveAccessibleDescription(/15.*60/);
    await expect(streamUrl).not.toHaveAttribute("aria-invalid", "true");
    await page.keyboard.press("Escape");
    await expect(camera).toBeHidden();
  } finally {
    await cleanUp(page.request, [store, other]);
  }
});

test("bulk deletes send one request each and report what worked and what did not", async ({ page }) => {
  await signIn(page);
  const store = await createStore(page.request);
  const systems = [
    await apiSystem(page.request, store),
    await apiSystem(page.request, store),
    await apiSystem(page.request, store),
  ];
  const [a, b, c] = systems as [Made, Made, Made];
  const cameras = [
    await apiCamera(page.request, { store, system: a, index: 1 }),
    await apiCamera(page.request, { store, system: a, index: 2 }),
    await apiCamera(page.request, { store }),
    await apiCamera(page.request, { store }),
  ];
  const [onA1, onA2, loose1, loose2] = cameras as [Made, Made, Made, Made];
  try {
    await openCameras(page);
    const storeGroup = group(page, store.name);
    await expect(storeGroup).toContainText("3 systems");
    await expect(storeGroup).toContainText("4 cameras");

    // Two standalone cameras: the bar, its confirmation, one DELETE each, the count in the toast.
    await card(storeGroup, loose1.name)
      .getByRole("checkbox", { name: `Select camera ${loose1.name}` })
      .check();
    await card(storeGroup, loose2.name)
      .getByRole("checkbox", { name: `Select camera ${loose2.name}` })
      .check();
    const bar = page.getByRole("region", { name: "Selection" });
    await expect(bar).toContainText("2 cameras selected");
    await expect(bar.getByRole("button", { name: "Delete Systems" })).toHaveCount(0);
    const deletes: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "DELETE") deletes.push(new URL(request.url()).pathname);
    });
    await bar.getByRole("button", { name: "Delete Cameras" }).click();
    const confirmCameras = page.getByRole("alertdialog");
    await expect(confirmCameras).toContainText("Delete 2 cameras?");
    await confirmCameras.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "2 cameras deleted successfully")).toBeVisible();
    await expect(card(page, loose1.name)).toHaveCount(0);
    await expect(card(page, loose2.name)).toHaveCount(0);
    expect(deletes.sort()).toEqual(
      [`/api/v1/cameras/cameras/${loose1.id}`, `/api/v1/cameras/cameras/${loose2.id}`].sort(),
    );
    await expect(bar).toBeHidden();

    // Clear Selection empties the bar.
    await card(storeGroup, b.name)
      .getByRole("checkbox", { name: `Select system ${b.name}` })
      .check();
    await expect(bar).toContainText("1 system selected");
    await bar.getByRole("button", { name: "Clear Selection" }).click();
    await expect(bar).toBeHidden();
    await expect(card(storeGroup, b.name).getByRole("checkbox", { name: `Select system ${b.name}` })).not.toBeChecked();

    // Three systems, one refused: the others go with their cameras, and both toasts say so.
    await page.route(`**/api/v1/cameras/systems/${c.id}`, (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({ status: 403, json: { detail: "You do not manage this store", code: "forbidden" } })
        : route.fallback(),
    );
    for (const system of systems) {
      await card(storeGroup, system.name)
        .getByRole("checkbox", { name: `Select system ${system.name}` })
        .check();
    }
    await expect(bar).toContainText("3 systems selected");
    await bar.getByRole("button", { name: "Delete Systems" }).click();
    const confirmSystems = page.getByRole("alertdialog");
    await expect(confirmSystems).toContainText("Delete 3 camera systems?");
    await expect(confirmSystems).toContainText("All their cameras are deleted too (2 cameras)");
    await confirmSystems.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "2 camera systems deleted successfully")).toBeVisible();
    await expect(toast(page, "Failed to delete some systems")).toContainText("You do not manage this store");
    await expect(card(page, a.name)).toHaveCount(0);
    await expect(card(page, onA1.name)).toHaveCount(0);
    await expect(card(page, onA2.name)).toHaveCount(0);
    await expect(card(page, c.name)).toBeVisible();
    await page.unroute(`**/api/v1/cameras/systems/${c.id}`);

    // One system from its card: the warning names its cameras, the toast the single delete.
    await card(storeGroup, c.name)
      .getByRole("button", { name: `Delete system ${c.name}` })
      .click();
    const confirmOne = page.getByRole("alertdialog");
    await expect(confirmOne).toContainText("Delete this camera system?");
    await expect(confirmOne).toContainText("all its cameras");
    await confirmOne.getByRole("button", { name: "Cancel" }).click();
    await expect(card(page, c.name)).toBeVisible();
    await card(storeGroup, c.name)
      .getByRole("button", { name: `Delete system ${c.name}` })
      .click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "Camera system deleted successfully")).toBeVisible();
    // The store keeps its group, now empty, to add a system to.
    await expect(card(page, c.name)).toHaveCount(0);
    await expect(storeGroup).toContainText("0 systems");
    await expect(storeGroup.getByRole("button", { name: "Add System to Store" })).toBeVisible();
  } finally {
    await cleanUp(page.request, [store]);
  }
});

/** The camera simulator, in its own process as a real recorder would be: ONVIF, RTSP and snapshots on loopback. */
interface Simulator {
  host: string;
  port: number;
  user: string;
  password: string;
  control: string;
  stop: () => void;
}

async function startSimulator(): Promise<Simulator> {
  const child = spawn(
    process.execPath,
    [
      path.resolve(import.meta.dirname, "../../../tools/camera-simulator/main.ts"),
      ...["--http-port", "0", "--rtsp-port", "0", "--control-port", "0", "--password", "e2e-kamera"],
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const printed = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (out.includes("CAMERA_SIM_CONTROL=") && out.endsWith("\n")) resolve(out);
    });
    child.on("exit", (code) => reject(new Error(`The camera simulator stopped (exit ${code})`)));
  });
  const values = Object.fromEntries([...printed.matchAll(/^\s+(CAMERA_SIM_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const http = new URL(values.CAMERA_SIM_HTTP ?? "");
  return {
    host: http.hostname,
    port: Number(http.port),
    user: values.CAMERA_SIM_USER ?? "",
    password: values.CAMERA_SIM_PASSWORD ?? "",
    control: values.CAMERA_SIM_CONTROL ?? "",
    stop: () => child.kill(),
  };
}

test.describe("with a camera on the network", () => {
  let simulator: Simulator;
  test.beforeAll(async () => {
    simulator = await startSimulator();
  });
  test.afterAll(() => simulator.stop());

  /** An ONVIF recorder on the simulator, with cameras on the channels asked for. */
  async function recorder(
    request: APIRequestContext,
    store: TestStore,
    channels: number[],
    opts: { password?: string } = {},
  ) {
    const system = await request.post("/api/v1/cameras/systems", {
      data: {
        name: unique("Simulator NVR"),
        type: "nvr",
        brand: "hikvision",
        connection_type: "onvif",
        host: simulator.host,
        port: simulator.port,
        username: simulator.user,
        password: opts.password ?? simulator.password,
        api_endpoint: "/onvif/device_service",
        store_id: store.id,
      },
    });
    expect(system.status(), await system.text()).toBe(201);
    const made = (await system.json()) as { id: string; name: string };
    const cameras: Made[] = [];
    for (const channel of channels) {
      cameras.push(await apiCamera(request, { store, system: made, index: channel, name: unique(`Kanal ${channel}`) }));
    }
    return { system: made, cameras };
  }

  /** The probe after the API's save has seen the wrong password: the system and its cameras are offline. */
  async function refused(request: APIRequestContext, rows: { path: string; id: string }[]) {
    for (const row of rows) {
      await expect
        .poll(
          async () =>
            ((await (await request.get(row.path)).json()) as { id: string; status: string }[]).find(
              (r) => r.id === row.id,
            )?.status,
          { timeout: 10_000 },
        )
        .toBe("offline");
    }
  }

  /** The health check has seen the camera: online, and whether it can pan, tilt and zoom. */
  async function seen(request: APIRequestContext, camera: Made) {
    await expect
      .poll(
        async () => {
          const all = (await (await request.get("/api/v1/cameras/cameras")).json()) as { id: string; status: string }[];
          return all.find((row) => row.id === camera.id)?.status;
        },
        { timeout: 20_000 },
      )
      .toBe("online");
  }

  test("the connection test says what worked and what did not", async ({ page }) => {
    await signIn(page);
    const store = await createStore(page.request);
    const { system } = await recorder(page.request, store, [1]);
    try {
      await openCameras(page);
      const systemCard = card(page, system.name);
      const openEdit = async () => {
        await systemCard.getByRole("button", { name: `Edit system ${system.name}` }).click();
        const edit = page.getByRole("dialog", { name: "Edit Camera System" });
        await edit.getByRole("tab", { name: "Connection" }).click();
        return edit;
      };

      let edit = await openEdit();
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(toast(page, "Connection test successful")).toBeVisible();
      await expect(edit.locator("[data-result=success]")).toBeVisible();
      await expect(edit.getByRole("status").filter({ hasText: "ms" })).toContainText("Connected");

      // A wrong password, saved: the test fails at the sign-in step, in red, with a warning.
      await edit.getByLabel("Password").fill("fel-lösenord");
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expect(edit).toBeHidden();
      edit = await openEdit();
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(toast(page, "Connection test failed")).toBeVisible();
      const failed = edit.locator("[data-result=failed]");
      await expect(failed).toContainText(/password/i);
      await expect(edit.locator("[data-result=success]")).toHaveCount(0);

      // A request the server refuses is said as such.
      await page.route("**/api/v1/cameras/systems/test", (route) =>
        route.fulfill({ status: 403, json: { detail: "You do not manage this store", code: "forbidden" } }),
      );
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(toast(page, "Failed to test connection")).toBeVisible();
      await expect(failed).toContainText("You do not manage this store");
      await page.unroute("**/api/v1/cameras/systems/test");

      // The right password again, and the test passes.
      await edit.getByLabel("Password").fill(simulator.password);
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expect(edit).toBeHidden();
      edit = await openEdit();
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(edit.locator("[data-result=success]")).toBeVisible();
    } finally {
      await cleanUp(page.request, [store]);
    }
  });

  test("a camera card shows what the device reports beside what is configured, and flags a difference", async ({
    page,
  }) => {
    await signIn(page);
    if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
    const store = await createStore(page.request);
    const { system } = await recorder(page.request, store, []);
    // The simulator's channel 1 streams 1920x1080 at 25 fps, channel 2 1280x720 at 30 fps.
    const configured = { resolution: "1920x1080", fps: 25 };
    const agrees = await apiCamera(page.request, { store, system, index: 1, configured, name: unique("Entré") });
    const differs = await apiCamera(page.request, { store, system, index: 2, configured, name: unique("Hyllor") });
    await seen(page.request, agrees);
    await seen(page.request, differs);
    try {
      await openCameras(page);
      const flagged = card(page, differs.name);
      await expect(flagged.getByRole("definition").filter({ hasText: "1920x1080" })).toBeVisible();
      const warning = flagged.locator("[data-device-report=differs]");
      await expect(warning).toHaveText("Device reports 1280x720 / 30 FPS, not what is configured");
      await expect(warning).toBeVisible();
      const fine = card(page, agrees.name);
      await expect(fine.locator("[data-device-report=agrees]")).toHaveText("Device reports 1920x1080 / 25 FPS");
      await expect(fine.locator("[data-device-report=differs]")).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, "camera cards with the device's report");

      // Configured as the device streams: saved, probed at once, and the flag goes.
      await flagged.getByRole("button", { name: "Edit" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Camera" });
      await edit.getByRole("tab", { name: "Stream" }).click();
      await edit.getByLabel("Resolution").selectOption("1280x720");
      await edit.getByLabel("FPS").fill("30");
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expect(toast(page, "Camera updated successfully")).toBeVisible();
      await expect(flagged.locator("[data-device-report=agrees]")).toHaveText("Device reports 1280x720 / 30 FPS");
      await expect(flagged.locator("[data-device-report=differs]")).toHaveCount(0);
    } finally {
      await cleanUp(page.request, [store]);
    }
  });

  test("a fixed system's card shows Online right after the save, not at the next health round", async ({ page }) => {
    await signIn(page);
    if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
    const store = await createStore(page.request);
    const { system, cameras } = await recorder(page.request, store, [1], { password: "fel-lösenord" });
    const [camera] = cameras as [Made];
    await refused(page.request, [
      { path: "/api/v1/cameras/systems", id: system.id },
      { path: "/api/v1/cameras/cameras", id: camera.id },
    ]);
    try {
      await openCameras(page);
      const systemCard = card(page, system.name);
      // The save's own probe found the wrong password.
      await expect(systemCard.getByText("Offline", { exact: true }).first()).toBeVisible();
      await expect(card(systemCard, camera.name).getByText("Offline", { exact: true })).toBeVisible();

      await systemCard.getByRole("button", { name: `Edit system ${system.name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit Camera System" });
      await edit.getByRole("tab", { name: "Connection" }).click();
      await edit.getByLabel("Password").fill(simulator.password);
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expect(toast(page, "Camera system updated successfully")).toBeVisible();
      // The health round is a minute apart; the probe after the save answers within seconds.
      await expect(systemCard.getByText("Online", { exact: true }).first()).toBeVisible({ timeout: 8_000 });
      await expect(card(systemCard, camera.name).getByText("Online", { exact: true })).toBeVisible({
        timeout: 8_000,
      });
      await expect(card(systemCard, camera.name).locator("[data-device-report]")).toContainText("Device reports");
    } finally {
      await cleanUp(page.request, [store]);
    }
  });

  test("Test Connection tries what is typed in the dialog, before it is saved", async ({ page }) => {
    await signIn(page);
    if (isPhone(page)) await page.setViewportSize({ width: 390, height: 844 });
    const store = await createStore(page.request);
    const { system } = await recorder(page.request, store, [], { password: "fel-lösenord" });
    await refused(page.request, [{ path: "/api/v1/cameras/systems", id: system.id }]);
    try {
      await openCameras(page);
      const systemCard = card(page, system.name);
      await expect(systemCard.getByText("Offline", { exact: true }).first()).toBeVisible();
      await systemCard.getByRole("button", { name: `Edit system ${system.name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit Camera System" });
      await edit.getByRole("tab", { name: "Connection" }).click();

      // The saved password is wrong: tested as it stands, the sign-in fails.
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(edit.locator("[data-result=failed]")).toContainText(/password/i);

      // The right one typed, not saved: the test passes, with what was typed.
      await edit.getByLabel("Password").fill(simulator.password);
      const sent = page.waitForRequest("**/api/v1/cameras/systems/test");
      await edit.getByRole("button", { name: "Test Connection" }).click();
      expect((await sent).postDataJSON()).toMatchObject({
        host: simulator.host,
        port: simulator.port,
        password: simulator.password,
        system_id: system.id,
        store_id: store.id,
      });
      await expect(edit.locator("[data-result=success]")).toBeVisible();
      await expect(toast(page, "Connection test successful")).toBeVisible();

      // A wrong port typed: the test says where it could not connect.
      await edit.getByLabel("Port *").fill("1");
      await edit.getByRole("button", { name: "Test Connection" }).click();
      const failed = edit.locator("[data-result=failed]");
      await expect(failed).toContainText(`${simulator.host}:1`);
      await expect(failed).toContainText(/refused/i);

      // A host the server refuses (link-local): its words, as a save would get them.
      await edit.getByLabel("Host / IP Address *").fill("169.254.1.1");
      await edit.getByRole("button", { name: "Test Connection" }).click();
      await expect(failed).toContainText("169.254.1.1");

      // Nothing was saved: cancelled, the system is as it was.
      await edit.getByRole("button", { name: "Cancel" }).click();
      await expect(systemCard).toContainText(`${simulator.host}:${simulator.port}`);
      await expect(systemCard.getByText("Offline", { exact: true }).first()).toBeVisible();
    } finally {
      await cleanUp(page.request, [store]);
    }
  });

  test("the live preview shows the stream, a renewed snapshot, and moves the camera", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page);
    const store = await createStore(page.request);
    const { cameras } = await recorder(page.request, store, [1, 3]);
    const [dome, noPresets] = cameras as [Made, Made];
    await seen(page.request, dome);
    await seen(page.request, noPresets);
    await page.request.delete(`${simulator.control}/commands`);
    try {
      await openCameras(page);
      await card(page, dome.name).getByRole("button", { name: "View" }).click();
      const preview = page.getByRole("dialog", { name: `${dome.name} Live Preview` });
      await expect(preview.getByRole("heading", { name: "RTSP Stream Available" })).toBeVisible();
      const url = (await preview.getByTestId("stream-url").innerText()).trim();
      expect(url).toMatch(/^rtsp:\/\//);
      expect(url, "no credentials in the address").not.toContain("@");
      await expect(preview.getByText("1920x1080")).toBeVisible();
      await expect(preview.getByText("25 FPS")).toBeVisible();
      await preview.getByRole("button", { name: "Copy URL" }).click();
      await expect(toast(page, "Stream URL copied to clipboard")).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await expect(preview.getByRole("listitem").filter({ hasText: "Open Network Stream" })).toBeVisible();

      // The picture is the camera's, and renewed while the dialog is open.
      const picture = preview.getByRole("img", { name: `Snapshot from ${dome.name}` });
      await expect(picture).toBeVisible();
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const first = await picture.getAttribute("src");
      await expect.poll(() => picture.getAttribute("src"), { timeout: 15_000 }).not.toBe(first);

      // Speed 80, then up: every control waits while the command runs.
      const speed = preview.getByRole("slider", { name: "Speed" });
      await expect(speed).toHaveAttribute("aria-valuenow", "50");
      await speed.focus();
      await page.keyboard.press("End");
      await page.keyboard.press("PageDown");
      await page.keyboard.press("PageDown");
      await expect(speed).toHaveAttribute("aria-valuenow", "80");
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/v1/cameras/cameras/*/ptz", async (route) => {
        await held;
        await route.fallback();
      });
      await preview.getByRole("button", { name: "Tilt up" }).click();
      await expect(preview.getByRole("button", { name: "Pan left" })).toBeDisabled();
      await expect(preview.getByRole("button", { name: "Zoom In" })).toBeDisabled();
      await expect(preview.getByRole("button", { name: "Checkout" })).toBeDisabled();
      release();
      await expect(toast(page, "PTZ command executed: tilt_up")).toBeVisible();
      await expect(preview.getByRole("button", { name: "Pan left" })).toBeEnabled();
      await page.unroute("**/api/v1/cameras/cameras/*/ptz");
      const commands = async () =>
        (
          (await (await page.request.get(`${simulator.control}/commands?channel=1`)).json()) as {
            commands: { op: string; velocity?: { y?: number } }[];
          }
        ).commands;
      const moved = await commands();
      expect(moved.find((c) => c.op === "ContinuousMove")?.velocity?.y).toBeCloseTo(0.8);
      expect(
        moved.some((c) => c.op === "Stop"),
        "an explicit stop follows the move",
      ).toBe(true);

      // Zoom, and a saved preset.
      await preview.getByRole("button", { name: "Zoom In" }).click();
      await expect(toast(page, "PTZ command executed: zoom_in")).toBeVisible();
      await preview.getByRole("button", { name: "Checkout" }).click();
      await expect(toast(page, "PTZ command executed: goto_preset")).toBeVisible();
      expect((await commands()).some((c) => c.op === "GotoPreset")).toBe(true);

      // Snapshot: taken now and opened in a new tab from our own origin.
      const opened = page.waitForEvent("popup");
      await preview.getByRole("button", { name: "Snapshot", exact: true }).click();
      const tab = await opened;
      await expect(toast(page, "Snapshot captured")).toBeVisible();
      await expect(tab).toHaveURL(/\/api\/v1\/cameras\/snapshots\//);
      await tab.close();

      // Fullscreen fills the window, and back.
      const fullscreen = preview.getByRole("button", { name: "Fullscreen" });
      await fullscreen.click();
      await expect(preview.getByRole("button", { name: "Exit Fullscreen" })).toHaveAttribute("aria-pressed", "true");
      const width = page.viewportSize()?.width ?? 0;
      await expect.poll(async () => Math.round((await preview.boundingBox())?.width ?? 0)).toBe(width);
      await preview.getByRole("button", { name: "Exit Fullscreen" }).click();
      await page.keyboard.press("Escape");
      await expect(preview).toBeHidden();
      await expect(card(page, dome.name).getByRole("button", { name: "View" })).toBeFocused();

      // A PTZ camera without presets says so.
      await card(page, noPresets.name).getByRole("button", { name: "View" }).click();
      const second = page.getByRole("dialog", { name: `${noPresets.name} Live Preview` });
      await expect(second.getByText("No presets configured")).toBeVisible();
      await expect(second.getByRole("button", { name: "Tilt up" })).toBeEnabled();
      await page.keyboard.press("Escape");
    } finally {
      await cleanUp(page.request, [store]);
    }
  });
});

test("a camera without a stream or PTZ says so in its preview", async ({ page }) => {
  await signIn(page);
  const store = await createStore(page.request);
  const created = await page.request.post("/api/v1/cameras/cameras", {
    data: { name: unique("Tom kamera"), store_id: store.id },
  });
  expect(created.status()).toBe(201);
  const camera = (await created.json()) as Made;
  try {
    await openCameras(page);
    await card(page, camera.name).getByRole("button", { name: "View" }).click();
    const preview = page.getByRole("dialog", { name: `${camera.name} Live Preview` });
    await expect(preview.getByText("No stream available")).toBeVisible();
    await expect(toast(page, "Failed to get stream")).toContainText("no stream URL");
    await expect(preview.getByText("This camera cannot pan, tilt or zoom.")).toBeVisible();
    await expect(preview.getByRole("button", { name: "Tilt up" })).toBeDisabled();
    await expect(preview.getByRole("slider", { name: "Speed" })).toHaveAttribute("data-disabled", "");
    await expect(preview.getByText("No presets configured")).toBeVisible();
  } finally {
    await cleanUp(page.request, [store]);
  }
});
