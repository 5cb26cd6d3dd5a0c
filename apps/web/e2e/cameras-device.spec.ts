import { createStore, expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import { expectAccessible } from "./support/accessibility.ts";
import {
  apiCamera,
  card,
  cleanUp,
  expectNoSidewaysScroll,
  type Made,
  openCameras,
  recorder,
  refused,
  type Simulator,
  seen,
  startSimulator,
  toast,
} from "./support/cameras.ts";

// A recorder that answers: the connection test, what the device reports, its status after a save.

test.describe("with a camera on the network", () => {
  let simulator: Simulator;
  test.beforeAll(async () => {
    simulator = await startSimulator();
  });
  test.afterAll(() => simulator.stop());

  test("the connection test says what worked and what did not", async ({ page }) => {
    await signIn(page);
    const store = await createStore(page.request);
    const { system } = await recorder(page.request, simulator, store, [1]);
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
    const { system } = await recorder(page.request, simulator, store, []);
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
    const { system, cameras } = await recorder(page.request, simulator, store, [1], { password: "fel-lösenord" });
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
      // The health round is a minute apart; the probe after the save answers within seconds (15 s leaves room
      // for a loaded machine: a full run beside other work once took longer than 8 s).
      await expect(systemCard.getByText("Online", { exact: true }).first()).toBeVisible({ timeout: 15_000 });
      await expect(card(systemCard, camera.name).getByText("Online", { exact: true })).toBeVisible({
        timeout: 15_000,
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
    const { system } = await recorder(page.request, simulator, store, [], { password: "fel-lösenord" });
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
});
