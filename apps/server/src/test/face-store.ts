import http from "node:http";
import { gtinCheckDigit } from "@glide/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type CameraSimulator, startCameraSimulator } from "../../../../tools/camera-simulator/simulator.ts";
import { queryRows } from "../db/client.ts";
import { createFaceModel } from "../platform/face/face-model.ts";
import { groupPhotos, peopleOf } from "./face-samples.ts";
import { shopper as newShopper, type TestShopper } from "./factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "./harness.ts";
import { type PaymentHarness, startPaymentHarness } from "./payments.ts";

/**
 * For the face check's tests, end to end, as a store runs it: the real model, the camera
 * simulator's entrance (channel 1) and exit (channel 4) showing pictures of
 * people from an npm package's sample photos, the door scanner and the
 * payment simulator. Who consented, who is learnt, who is let out, and that
 * nothing about a face outlives its visit.
 */
export let ctx: TestContext;
export let sim: CameraSimulator;
export let pay: PaymentHarness;
export let admin: ReturnType<typeof as>;
export let store: string;
export let doorKey: string;
/** Pictures of three people (one photo's, cut out one by one), and the photo of all three. */
export let people: Buffer[];
export let together: Buffer;
/** A fourth person, from another photo. */
export let stranger: Buffer;
export const ENTRANCE = 1;
export const EXIT = 4;
export const juice = `731000000611${gtinCheckDigit("731000000611")}`;
/** The door controller's webhook: each visit the door or the gate opened for, in order. */
const opened: string[] = [];
const controller = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    opened.push(JSON.parse(body).session_id);
    res.writeHead(200).end();
  });
});
export const opensFor = (visit: string) => opened.filter((id) => id === visit).length;

/** Registers the store, its cameras, door and payments around the tests of the file that calls it. */
export function useFaceStore(): void {
  beforeAll(async () => {
    const model = createFaceModel({ nice: 0 });
    const photos = await groupPhotos();
    together = photos[0] as Buffer;
    people = (await peopleOf(model, together)).map((p) => p.picture);
    stranger = ((await peopleOf(model, photos[2] as Buffer))[0] as { picture: Buffer }).picture;
    sim = await startCameraSimulator({ controlPort: null, password: "kamera-lösen-9" });
    pay = await startPaymentHarness();
    await new Promise<void>((resolve) => controller.listen(0, "127.0.0.1", resolve));
    ctx = await createTestContext(
      {
        DEV_TOOLS: "true",
        STRIPE_SECRET_KEY: pay.simulator.secretKey,
        STRIPE_API_BASE: pay.apiBase,
        DOOR_WEBHOOK_URL: `http://127.0.0.1:${(controller.address() as { port: number }).port}/open`,
        DOOR_WEBHOOK_SECRET: "face-door-webhook-secret",
      },
      { faceModel: model },
    );
    admin = as(ctx.app, (await signIn(ctx.app)).cookie);
    store = (await admin.post("/api/v1/stores/", { name: "Ansiktsbutiken" })).json().id;
    expect((await admin.post(`/api/v1/stores/${store}/modules/face_checkout`, { enabled: true })).statusCode).toBe(200);
    doorKey = (await createDeviceKey(ctx.app, store, "door_scanner")).key;
    const system = await admin.post("/api/v1/cameras/systems", {
      name: "Butikens NVR",
      connection_type: "onvif",
      host: "127.0.0.1",
      port: sim.httpPort,
      username: sim.user,
      password: "kamera-lösen-9",
      store_id: store,
    });
    expect(system.statusCode, system.body).toBe(201);
    for (const [index, zone] of [
      [ENTRANCE, "entrance"],
      [2, "aisle"],
      [EXIT, "exit"],
    ] as const) {
      const res = await admin.post("/api/v1/cameras/cameras", {
        name: `Kamera ${zone}`,
        camera_index: index,
        camera_system_id: system.json().id,
        location_zone: zone,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const product = await admin.post("/api/v1/products/", {
      sku: "face-juice",
      name: "Äppeljuice",
      price: 19.9,
      barcode: juice,
    });
    expect(product.statusCode, product.body).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
    await pay?.close();
    controller.close();
  });
  beforeEach(async () => {
    await sim.configure({ fault: "none" });
    // Each test's shoppers are the only ones inside: an earlier test's visit with the same face would be a rival.
    await ctx.app.db.execute(
      sql`update shopping_sessions set state = 'ended_empty', checked_out_at = now()
        where store_id = ${store} and state = 'in_store'`,
    );
  });
}

export type Shopper = TestShopper & {
  consent(value: boolean): Promise<unknown>;
  verify(): Promise<{ status: string; reason: string }>;
};

export async function shopper(consent = true, card = "pm_card_visa"): Promise<Shopper> {
  const who = await newShopper(ctx.app, { card, name: "Eva", birthDate: "1975-07-07" });
  const withFace: Shopper = {
    ...who,
    consent: async (value) =>
      (await who.call({ method: "PUT", url: "/api/v1/face/consent", payload: { consent: value } })).json(),
    verify: async () => {
      const res = await who.call({ method: "POST", url: "/api/v1/face/verify", payload: { user_id: who.id } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
  if (consent) await withFace.consent(true);
  return withFace;
}

/** Through the real door with `face` before the entrance camera; waits until the face has been looked at. */
export async function enter(who: TestShopper, face: Buffer | null): Promise<string> {
  const visit = await openDoor(who, face);
  await ctx.app.faceCheck.settled();
  return visit;
}

/** Through the real door with `face` before the entrance camera, while the face is still being looked at. */
export async function openDoor(who: TestShopper, face: Buffer | null): Promise<string> {
  sim.showPicture(ENTRANCE, face);
  const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
  expect(entry.statusCode, entry.body).toBe(200);
  const { session_id, session_token } = entry.json();
  const door = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/door/scan",
    headers: { authorization: `Device ${doorKey}` },
    payload: { session_id, session_token, store_id: store },
  });
  expect(door.statusCode, door.body).toBe(200);
  return session_id;
}

/** A juice scanned into `visit`'s cart by its shopper (19,90 kr). */
export async function scanJuice(who: TestShopper, visit: string): Promise<void> {
  const res = await who.call({
    method: "POST",
    url: "/api/v1/cart/scan",
    payload: { session_id: visit, barcode: juice },
  });
  expect(res.statusCode, res.body).toBe(200);
}

export const descriptorOf = async (visit: string) =>
  (
    await queryRows<{ sealed: string; model: string }>(
      ctx.app.db,
      sql`select sealed, model from face_descriptors where session_id = ${visit}`,
    )
  )[0] ?? null;

export const enrolments = async (visit: string) =>
  (
    await queryRows<{ detail: { outcome: string } }>(
      ctx.app.db,
      sql`select detail from session_events where session_id = ${visit} and kind = 'face_enrolment' order by created_at`,
    )
  ).map((row) => row.detail.outcome);

export const snapshotsTaken = () => sim.requests().http.filter((line) => line.startsWith("GET ")).length;
