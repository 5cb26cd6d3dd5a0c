import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { createStore, expect, test, unique } from "./fixtures.ts";
import { apiCamera, type Simulator, startSimulator } from "./support/cameras.ts";
import { createProduct } from "./support/shopping.ts";
import { openAsShopper, signInNewShopper } from "./support/unpaid.ts";

// The face check at the exit, as a shopper meets it: consent on the card page, the door's camera learns the face,
// the exit camera knows it and the visit is paid without the QR code; someone else at the exit gets the QR code.

const require = createRequire(import.meta.url);
const photo = (n: number) =>
  readFileSync(path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "demo", `sample${n}.jpg`));

const ENTRANCE = 1;
const EXIT = 4;

async function show(simulator: Simulator, channel: number, picture: Buffer) {
  const res = await fetch(`${simulator.control}/channels/${channel}/picture`, {
    method: "PUT",
    body: new Uint8Array(picture),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** What the entrance camera's look at the door came to, once it has: on the visit's timeline in the console. */
async function enrolled(request: APIRequestContext, sessionId: string) {
  let outcome: unknown = null;
  await expect(async () => {
    const detail = await request.get(`/api/v1/admin/sessions/${sessionId}`);
    expect(detail.ok(), await detail.text()).toBe(true);
    const { timeline } = (await detail.json()) as { timeline: { kind: string; detail: { outcome?: string } | null }[] };
    outcome = timeline.find((event) => event.kind === "face_enrolment")?.detail?.outcome;
    expect(outcome).toBeTruthy();
  }).toPass({ timeout: 15_000 });
  return outcome;
}

/** A store with the face check on, its entrance and exit cameras on the simulator. */
async function faceStore(request: APIRequestContext, simulator: Simulator) {
  const store = await createStore(request);
  const module = await request.post(`/api/v1/stores/${store.id}/modules/face_checkout`, { data: { enabled: true } });
  expect(module.ok(), await module.text()).toBe(true);
  const system = await request.post("/api/v1/cameras/systems", {
    data: {
      name: unique("Butikens NVR"),
      type: "nvr",
      brand: "hikvision",
      connection_type: "onvif",
      host: simulator.host,
      port: simulator.port,
      username: simulator.user,
      password: simulator.password,
      api_endpoint: "/onvif/device_service",
      store_id: store.id,
    },
  });
  expect(system.status(), await system.text()).toBe(201);
  const made = (await system.json()) as { id: string; name: string };
  await apiCamera(request, { store, system: made, index: ENTRANCE, zone: "entrance" });
  await apiCamera(request, { store, system: made, index: EXIT, zone: "exit" });
  return store;
}

test.describe("the face check at the exit", () => {
  let simulator: Simulator;
  test.beforeAll(async () => {
    simulator = await startSimulator();
  });
  test.afterAll(() => simulator.stop());

  test("a shopper who consented is known at the exit: paid without the QR code", async ({ page }) => {
    const store = await faceStore(page.request, simulator);
    const juice = await createProduct(page.request, { price: 21.5, name: "Äppeljuice" });
    await show(simulator, ENTRANCE, photo(1));
    await show(simulator, EXIT, photo(1));
    const who = await signInNewShopper(page);

    // Consent, as the shopper gives it: on the card page, off until turned on.
    await openAsShopper(page, who, "/customer/betalkort");
    const consent = page.getByRole("checkbox", { name: "Jag samtycker till ansiktsverifiering vid utgången" });
    await expect(consent).not.toBeChecked();
    await consent.check();
    await expect(page.getByText("Samtycket är sparat.")).toBeVisible();

    const headers = { Authorization: `Bearer ${who.accessToken}` };
    const entry = await page.request.post("/api/v1/sessions/entry", { data: { store_id: store.id }, headers });
    const visit = (await entry.json()) as { session_id: string; session_token: string; store_id: string };
    const door = await page.request.post("/api/v1/sessions/door/scan", {
      data: visit,
      headers: { Authorization: `Device ${store.doorKey}` },
    });
    expect(door.ok(), await door.text()).toBe(true);
    expect(await enrolled(page.request, visit.session_id)).toBe("kept");
    const scan = await page.request.post("/api/v1/cart/scan", {
      data: { session_id: visit.session_id, barcode: juice.barcode },
      headers,
    });
    expect(scan.ok(), await scan.text()).toBe(true);

    await openAsShopper(page, who, "/customer/exit", visit);
    await expect(page.getByRole("heading", { name: "Tack för ditt köp!" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("region", { name: "Kvitto" })).toContainText("Äppeljuice");
    await expect(page.getByRole("img", { name: "QR-kod för utgången" })).toHaveCount(0);
  });

  test("someone else at the exit: the QR code, within the page's wait", async ({ page }) => {
    const store = await faceStore(page.request, simulator);
    await show(simulator, ENTRANCE, photo(1));
    await show(simulator, EXIT, photo(3));
    const who = await signInNewShopper(page);
    const headers = { Authorization: `Bearer ${who.accessToken}` };
    expect((await page.request.put("/api/v1/face/consent", { data: { consent: true }, headers })).ok()).toBe(true);
    const entry = await page.request.post("/api/v1/sessions/entry", { data: { store_id: store.id }, headers });
    const visit = (await entry.json()) as { session_id: string; session_token: string; store_id: string };
    const door = await page.request.post("/api/v1/sessions/door/scan", {
      data: visit,
      headers: { Authorization: `Device ${store.doorKey}` },
    });
    expect(door.ok(), await door.text()).toBe(true);
    expect(await enrolled(page.request, visit.session_id)).toBe("kept");

    await openAsShopper(page, who, "/customer/exit", visit);
    await expect(page.getByRole("heading", { name: "Scanna för att gå ut" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("img", { name: "QR-kod för utgången" })).toBeVisible();
  });
});
