/**
 * What the face check's end-to-end bench needs, made through the API as a
 * store and its shoppers would: the camera simulator as its own process,
 * stores with the face_checkout module, a door scanner and entrance and exit
 * cameras on the simulator, shoppers signed in through BankID with consent
 * and a card on file, and visits through the door whose face has been
 * looked at. The pictures come from bench/face.ts.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { post } from "./cart-setup.ts";
import { bankIdShopper, type Outside, type Shopper, settingsOf } from "./checkout-provider.ts";
import { call, HOST, type Server, start, stop } from "./lib.ts";

/** The simulator's channels the stores' cameras are on, as in the server's face tests. */
export const ENTRANCE = 1;
export const EXIT = 4;
/** People in each store at once: the exit's group photo shows three, each a different visit's face. */
export const PER_STORE = 3;
/** Sign-ins one address may start per minute (the server's INIT_LIMIT): the bench's shoppers. */
export const SIGN_INS_PER_MINUTE = 30;

/** The pictures the cameras show: each person alone, framed as the door sees them, and all of them together. */
export type FacePictures = { people: Buffer[]; group: Buffer };

export type Cameras = {
  http: URL;
  user: string;
  password: string;
  /** Puts a JPEG on a channel through the simulator's control API. */
  show(channel: number, jpeg: Buffer): Promise<void>;
  close(): Promise<void>;
};

/** The camera simulator as `npm start` runs it: its own process, on loopback, its settings printed. */
export async function startCameras(): Promise<Cameras> {
  const password = randomBytes(9).toString("base64url");
  const args = ["--host", HOST, "--http-port", "0", "--rtsp-port", "0", "--control-port", "0", "--password", password];
  const child = start(["tools/camera-simulator/main.ts", ...args], {});
  try {
    const settings = await settingsOf(child, "CAMERA_SIM_CONTROL");
    const control = settings.CAMERA_SIM_CONTROL!;
    return {
      http: new URL(settings.CAMERA_SIM_HTTP!),
      user: settings.CAMERA_SIM_USER!,
      password: settings.CAMERA_SIM_PASSWORD!,
      show: async (channel, jpeg) => {
        const res = await fetch(`${control}/channels/${channel}/picture`, {
          method: "PUT",
          headers: { "content-type": "image/jpeg" },
          body: new Uint8Array(jpeg),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`the camera simulator refused the picture: ${res.status} ${await res.text()}`);
      },
      close: () => stop(child),
    };
  } catch (err) {
    await stop(child);
    throw err;
  }
}

/** PUT with JSON as the shopper; throws on a non-2xx answer. */
async function put(url: string, json: unknown, token: string): Promise<void> {
  const res = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(json),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`PUT ${url} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
}

/** A visit through the door: whose, and what came of looking at the entrance's picture, and how long it took. */
export type Entered = { shopper: Shopper; visit: string; outcome: string; enrolMs: number };

export type FaceShop = {
  server: Server;
  shoppers: Shopper[];
  stores: number;
  /** Enters the next `count` visits one at a time, each waiting until its face has been looked at. */
  enter(count: number): Promise<Entered[]>;
  close(): Promise<void>;
};

/**
 * The face check's shop on a running server: camera health rounds put off
 * (the bench's many stores would each be probed), the exit showing the
 * group photo, and SIGN_INS_PER_MINUTE shoppers with consent and a card.
 * Stores are made as visits need them, PER_STORE visits to a store, each of
 * a different person, so no visit inside is another's rival at the exit.
 */
export async function prepareFaceShop(
  server: Server,
  outside: Outside,
  cameras: Cameras,
  pictures: FacePictures,
  databaseUrl: string,
): Promise<FaceShop> {
  const { base, session: cookie } = server;
  await call(`${base}/api/v1/settings/camera/health_check_interval`, { method: "PUT", json: { value: 3600 }, cookie });
  await cameras.show(EXIT, pictures.group);
  const shoppers: Shopper[] = [];
  // Ten at a time: each waits about 2 s for BankID, and the address may start 30 sign-ins a minute.
  for (let from = 0; from < SIGN_INS_PER_MINUTE; from += 10) {
    const batch = Array.from({ length: 10 }, async (_, i) => {
      const shopper = await bankIdShopper(base, outside.bankidControl, from + i);
      await put(`${base}/api/v1/payment-method`, { payment_method: "pm_card_visa" }, shopper.token);
      await put(`${base}/api/v1/face/consent`, { consent: true }, shopper.token);
      return shopper;
    });
    shoppers.push(...(await Promise.all(batch)));
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let store: { storeId: string; doorKey: string } | null = null;
  let stores = 0;
  let next = 0;

  const newStore = async () => {
    stores++;
    const made = await call(`${base}/api/v1/stores/`, {
      method: "POST",
      json: { name: `Face store ${stores}` },
      cookie,
    });
    const storeId = ((await made.json()) as { id: string }).id;
    await call(`${base}/api/v1/stores/${storeId}/modules/face_checkout`, {
      method: "POST",
      json: { enabled: true },
      cookie,
    });
    const key = await call(`${base}/api/v1/stores/${storeId}/device-keys`, {
      method: "POST",
      json: { kind: "door_scanner" },
      cookie,
    });
    const system = await call(`${base}/api/v1/cameras/systems`, {
      method: "POST",
      json: {
        name: `Face store ${stores} NVR`,
        connection_type: "onvif",
        host: cameras.http.hostname,
        port: Number(cameras.http.port),
        username: cameras.user,
        password: cameras.password,
        store_id: storeId,
      },
      cookie,
    });
    const systemId = ((await system.json()) as { id: string }).id;
    for (const [channel, zone] of [
      [ENTRANCE, "entrance"],
      [EXIT, "exit"],
    ] as const) {
      await call(`${base}/api/v1/cameras/cameras`, {
        method: "POST",
        json: { name: `Kamera ${zone}`, camera_index: channel, camera_system_id: systemId, location_zone: zone },
        cookie,
      });
    }
    return { storeId, doorKey: ((await key.json()) as { key: string }).key };
  };

  /** The outcome of the visit's enrolment, once the server has recorded it (polled every 10 ms). */
  const enrolled = async (visit: string): Promise<string> => {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ outcome: string }>(
        "select detail->>'outcome' as outcome from session_events where session_id = $1 and kind = 'face_enrolment'",
        [visit],
      );
      if (rows[0]) return rows[0].outcome;
      await sleep(10);
    }
    throw new Error(`visit ${visit}: no face enrolment recorded within 30 s`);
  };

  return {
    server,
    shoppers,
    get stores() {
      return stores;
    },
    async enter(count) {
      const entered: Entered[] = [];
      for (let i = 0; i < count; i++, next++) {
        if (next % PER_STORE === 0 || !store) store = await newStore();
        // Each store's visits are different people; a shopper's visits at once are in different stores.
        await cameras.show(ENTRANCE, pictures.people[next % PER_STORE]!);
        const shopper = shoppers[next % shoppers.length]!;
        const entry = (await post(
          `${base}/api/v1/sessions/entry`,
          { store_id: store.storeId },
          `Bearer ${shopper.token}`,
        )) as { session_id: string };
        const started = performance.now();
        await post(`${base}/api/v1/sessions/door/scan`, entry, `Device ${store.doorKey}`);
        const outcome = await enrolled(entry.session_id);
        entered.push({ shopper, visit: entry.session_id, outcome, enrolMs: performance.now() - started });
      }
      return entered;
    },
    close: () => db.end(),
  };
}

/** One POST /api/v1/face/verify of the shopper: the answer and how long it took (ms). */
export async function verify(base: string, shopper: Shopper): Promise<{ ms: number; answer: string }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/face/verify`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${shopper.token}` },
    body: JSON.stringify({ user_id: shopper.id }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) return { ms, answer: `HTTP ${res.status}` };
  const { status, reason } = JSON.parse(text) as { status: string; reason: string };
  return { ms, answer: status === "ok" ? "ok" : reason };
}
