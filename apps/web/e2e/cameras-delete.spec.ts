import { createStore, expect, signIn, test } from "./fixtures.ts";
import { apiCamera, apiSystem, card, cleanUp, group, type Made, openCameras, toast } from "./support/cameras.ts";

// Deleting cameras and systems: from a card, and many at once from the selection bar.

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
