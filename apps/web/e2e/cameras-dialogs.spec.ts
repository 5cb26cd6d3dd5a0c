import { CAMERA_LIMITS } from "@glide/contracts";
import { createStore, expect, isPhone, signIn, test, unique } from "./fixtures.ts";
import { card, cleanUp, expectNoSidewaysScroll, group, NO_DEVICE, openCameras, toast } from "./support/cameras.ts";

// The Add and Edit dialogs of systems and cameras: what they start with, what they save, what they refuse.

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
