import { createStore, expect, signIn, test, unique } from "./fixtures.ts";
import {
  card,
  cleanUp,
  type Made,
  openCameras,
  recorder,
  type Simulator,
  seen,
  startSimulator,
  toast,
} from "./support/cameras.ts";

// A camera's live preview: its stream, snapshots and pan, tilt and zoom.

test.describe("with a camera on the network", () => {
  let simulator: Simulator;
  test.beforeAll(async () => {
    simulator = await startSimulator();
  });
  test.afterAll(() => simulator.stop());

  test("the live preview shows the stream, a renewed snapshot, and moves the camera", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page);
    const store = await createStore(page.request);
    const { cameras } = await recorder(page.request, simulator, store, [1, 3]);
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
