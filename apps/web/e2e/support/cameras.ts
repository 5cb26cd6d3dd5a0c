import { spawn } from "node:child_process";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, type TestStore, unique } from "../fixtures.ts";

/** No device listens on the discard port: systems pointing there are simply offline. */
export const NO_DEVICE = { host: "127.0.0.1", port: 9 };

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A store's group: the section named by its heading (store name, then address). */
export const group = (page: Page, name: string) =>
  page.getByRole("region", { name: new RegExp(`^${escapeRegExp(name)}`) });
/** A system's or a camera's card, named by its name. */
export const card = (scope: Page | Locator, name: string) => scope.getByRole("article", { name, exact: true });
/** The toast that says `text`. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });

export interface Made {
  id: string;
  name: string;
}

/** A recorder made through the API in `store`, at an address where no device answers. */
export async function apiSystem(request: APIRequestContext, store: TestStore, name = unique("E2E NVR")): Promise<Made> {
  const created = await request.post("/api/v1/cameras/systems", {
    data: { name, ...NO_DEVICE, store_id: store.id, brand: "hikvision", type: "nvr", connection_type: "rtsp" },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { id: string }).id, name };
}

/** A camera made through the API: on a channel of `system`, or standalone with a stream nobody serves. */
export async function apiCamera(
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
export async function cleanUp(request: APIRequestContext, stores: TestStore[], systems: Made[] = []) {
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

/** Opens Camera Management and waits for its heading. */
export async function openCameras(page: Page) {
  await page.goto("/cameras");
  await expect(page.getByRole("heading", { name: "Camera Management", level: 1 })).toBeVisible();
}

/** Fails when the page is wider than the window. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

/** The camera simulator, in its own process as a real recorder would be: ONVIF, RTSP and snapshots on loopback. */
export interface Simulator {
  host: string;
  port: number;
  user: string;
  password: string;
  control: string;
  stop: () => void;
}

/** Starts a camera simulator of the spec's own on free ports, and says where it listens once it does. */
export async function startSimulator(): Promise<Simulator> {
  const child = spawn(
    process.execPath,
    [
      path.resolve(import.meta.dirname, "../../../../tools/camera-simulator/main.ts"),
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

/** An ONVIF recorder on the simulator, with cameras on the channels asked for. */
export async function recorder(
  request: APIRequestContext,
  simulator: Simulator,
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
export async function refused(request: APIRequestContext, rows: { path: string; id: string }[]) {
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
export async function seen(request: APIRequestContext, camera: Made) {
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
