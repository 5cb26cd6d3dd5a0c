/**
 * The face check (issue 25) on 1280×720 pictures made from an npm package's
 * sample photos (apps/server/src/test/face-samples.ts): the face model in
 * this process (its start, then one person as the door sees them and a group
 * of three as the exit does, with this thread's event-loop delay meanwhile),
 * then through the real server on PostgreSQL with the camera simulator: the
 * face learnt at the door, `POST /api/v1/face/verify` one at a time, and
 * another route's p99 alone and while verifications run. Returns its
 * section of bench/results.md (bench/face-report.ts).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import sharp from "sharp";
import { createFaceModel } from "../apps/server/src/platform/face/face-model.ts";
import { groupPhotos, peopleOf } from "../apps/server/src/test/face-samples.ts";
import { quietCpu } from "./cart-setup.ts";
import { type Outside, startOutside } from "./checkout-provider.ts";
import {
  type EndToEnd,
  type FaceFigures,
  type FaceSettings,
  faceReport,
  type ModelFigures,
  type RouteRun,
  type Spread,
  type VerifyLoop,
} from "./face-report.ts";
import {
  type Cameras,
  type Entered,
  type FacePictures,
  prepareFaceShop,
  SIGN_INS_PER_MINUTE,
  startCameras,
  verify,
} from "./face-setup.ts";
import {
  autocannon,
  loadAverage,
  PAUSE_MS,
  type Server,
  type Skipped,
  setting,
  waitIdle,
  withPostgres,
  withServer,
} from "./lib.ts";
import { quantile } from "./steady.ts";

const pictures = setting("BENCH_FACE_PICTURES", 30);
const duration = setting("BENCH_FACE_DURATION", 10);
const connections = setting("BENCH_FACE_CONNECTIONS", 10);
/** Verifications the loop keeps in flight while the other route is measured. */
const IN_FLIGHT = 2;
const WARMUP = 2;
const ROUTE_WARMUP_S = 3;
const ROUTE = "/api/v1/stores/";
/** Face checks one shopper may ask for per minute (the server's FACE_CHECKS_PER_MINUTE); past it, "busy". */
const FACE_CHECKS_PER_MINUTE = 10;
/**
 * At most this many verifications of the bench's shoppers in each part, so
 * none asks more than FACE_CHECKS_PER_MINUTE times in a minute.
 */
const MAX_PICTURES = 4 * SIGN_INS_PER_MINUTE - WARMUP;
/** One visit inside per shopper (see serverCases). */
const MAX_LOADED = SIGN_INS_PER_MINUTE;
const GREY = { r: 128, g: 128, b: 128 };

/** Seconds the face section may take before the bench gives up: a safety net, far above a normal run. */
export const faceTimeLimit = 600 + 30 * (pictures + WARMUP) + 10 * MAX_LOADED + 10 * (duration + ROUTE_WARMUP_S);

const settings: FaceSettings = {
  pictures,
  duration,
  connections,
  inFlight: IN_FLIGHT,
  warmup: WARMUP,
  routeWarmup: ROUTE_WARMUP_S,
  route: ROUTE,
  shoppers: SIGN_INS_PER_MINUTE,
  checksPerMinute: FACE_CHECKS_PER_MINUTE,
};

export async function faceBench(): Promise<string> {
  const startLoad = loadAverage();
  if (pictures > MAX_PICTURES) {
    return faceReport({ skipped: `BENCH_FACE_PICTURES is at most ${MAX_PICTURES}` }, settings, startLoad);
  }
  const made = await makePictures().catch((err: Error): Skipped => ({ skipped: err.message }));
  if ("skipped" in made) return faceReport(made, settings, startLoad);
  const endToEnd = await withOutside((outside) =>
    withCameras((cameras) =>
      withPostgres((url, version) =>
        withServer({ DATABASE_URL: url, DEV_TOOLS: "true", ...outside.env }, (server) =>
          serverCases(server, outside, cameras, made.pictures, url, version),
        ),
      ),
    ),
  ).catch((err: Error): Skipped => ({ skipped: err.message }));
  const figures: FaceFigures = { model: made.model, endToEnd };
  return faceReport(figures, settings, startLoad);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
function spread(values: number[]): Spread {
  const s = sorted(values);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: quantile(s, 1) };
}

/** "28 ok, 2 no_match": how many of each answer, most first. */
function tally(answers: string[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([answer, n]) => `${n} ${answer}`)
    .join(", ");
}

/** "1" or "2–3": the faces found in each picture of a kind. */
const facesFound = (counts: number[]) => {
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  return low === high ? String(low) : `${low}–${high}`;
};

/**
 * The pictures (the package's first group photo cut to 1280×720, and each of
 * its three people cut out and enlarged into a 1280×720 frame, as a door
 * camera near the scanner sees one shopper), and the model measured on them
 * in this process.
 */
async function makePictures(): Promise<{ pictures: FacePictures; model: ModelFigures }> {
  const photo = (await groupPhotos())[0]!;
  const group = await sharp(photo).resize(1280, 720, { fit: "cover" }).jpeg({ quality: 90 }).toBuffer();
  const started = performance.now();
  const model = createFaceModel();
  try {
    // The thread starts and loads its models at the first picture: the time until its answer.
    await model.find(group);
    const firstMs = performance.now() - started;
    const people = await Promise.all(
      (await peopleOf(model, photo)).map((person) =>
        sharp(person.picture).resize(1280, 720, { fit: "contain", background: GREY }).jpeg({ quality: 90 }).toBuffer(),
      ),
    );
    const busy = await quietCpu();
    const one: { ms: number[]; faces: number[] } = { ms: [], faces: [] };
    const three: { ms: number[]; faces: number[] } = { ms: [], faces: [] };
    // Samples every 10 ms how late this thread's timers run: the model's work would show here if it ran on it.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const from = performance.now();
    for (let i = 0; i < pictures; i++) {
      for (const [picture, into] of [
        [people[i % people.length]!, one],
        [group, three],
      ] as const) {
        const at = performance.now();
        const found = await model.find(picture);
        into.ms.push(performance.now() - at);
        into.faces.push(found.faces.length);
      }
    }
    const seconds = (performance.now() - from) / 1000;
    loop.disable();
    return {
      pictures: { people, group },
      model: {
        busy,
        firstMs,
        person: { ...spread(one.ms), faces: facesFound(one.faces) },
        group: { ...spread(three.ms), faces: facesFound(three.faces) },
        loopMaxMs: loop.max / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
        seconds,
      },
    };
  } finally {
    await model.close();
  }
}

async function withOutside<T>(use: (outside: Outside) => Promise<T>): Promise<T> {
  const outside = await startOutside();
  try {
    return await use(outside);
  } finally {
    await outside.close();
  }
}

async function withCameras<T>(use: (cameras: Cameras) => Promise<T>): Promise<T> {
  const cameras = await startCameras();
  try {
    return await use(cameras);
  } finally {
    await cameras.close();
  }
}

async function serverCases(
  server: Server,
  outside: Outside,
  cameras: Cameras,
  made: FacePictures,
  url: string,
  version: string,
): Promise<EndToEnd> {
  const { base } = server;
  const shop = await prepareFaceShop(server, outside, cameras, made, url);
  try {
    // One at a time: each shopper through the door, the face looked at before the next comes in (not timed here).
    // At most one visit inside per shopper at a time: an ok pays every visit the shopper owes, so a second one
    // inside would be over before its own check. So the visits come in batches of one per shopper.
    const visits: Entered[] = [];
    const answers: { ms: number; answer: string }[] = [];
    let busy: number | null = null;
    while (visits.length < WARMUP + pictures) {
      const batch = await shop.enter(Math.min(WARMUP + pictures - visits.length, shop.shoppers.length));
      for (const visit of batch) {
        visits.push(visit);
        if (visits.length <= WARMUP) {
          await verify(base, visit.shopper);
          if (visits.length === WARMUP) {
            await waitIdle(base);
            busy = await quietCpu();
          }
        } else answers.push(await verify(base, visit.shopper));
      }
    }
    const sequential = spread(answers.map((a) => a.ms));

    // Enough visits inside for the loop to keep IN_FLIGHT verifications going through the measured run.
    const needed = Math.ceil((2 * duration * 1000) / Math.max(sequential.p50, 50)) + IN_FLIGHT;
    const loadedCount = Math.min(MAX_LOADED, Math.max(2 * IN_FLIGHT, needed));
    const loaded = await shop.enter(loadedCount);
    const alone = await routeRun(server);
    const during = await routeRun(server, loaded);
    const measured = visits.slice(WARMUP).concat(loaded);
    return {
      version,
      stores: shop.stores,
      shoppers: shop.shoppers.length,
      enrol: spread(measured.map((v) => v.enrolMs)),
      enrolOutcomes: tally(measured.map((v) => v.outcome)),
      busy,
      verify: sequential,
      verifyOutcomes: tally(answers.map((a) => a.answer)),
      loadedVisits: loadedCount,
      alone,
      during,
    };
  } finally {
    await shop.close();
  }
}

/**
 * The other route under autocannon: a warm-up (not counted), a pause, then
 * the measured run; with `visits`, a loop keeps IN_FLIGHT of their
 * verifications going through the measured run.
 */
async function routeRun(server: Server, visits?: Entered[]): Promise<RouteRun> {
  const url = `${server.base}${ROUTE}`;
  const headers = { cookie: server.session };
  await autocannon({ url, connections, duration: ROUTE_WARMUP_S, headers });
  await sleep(PAUSE_MS);
  await waitIdle(server.base);
  const busy = await quietCpu();
  const loop = visits ? verifyLoop(server.base, visits) : null;
  const result = await autocannon({ url, connections, duration, headers });
  const verifications = await loop?.stop();
  return verifications ? { busy, result, verifications } : { busy, result };
}

/** IN_FLIGHT workers, each verifying the next visit's shopper as soon as its last answer came, until stopped. */
function verifyLoop(base: string, visits: Entered[]): { stop(): Promise<VerifyLoop> } {
  const started = performance.now();
  const answered: { ms: number; answer: string; at: number }[] = [];
  let stopped = false;
  let next = 0;
  let ranOut: number | null = null;
  const worker = async () => {
    while (!stopped) {
      const visit = visits[next++];
      if (!visit) {
        ranOut ??= performance.now();
        return;
      }
      answered.push({ ...(await verify(base, visit.shopper)), at: performance.now() });
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  return {
    async stop() {
      stopped = true;
      const end = performance.now();
      await Promise.all(workers);
      const within = answered.filter((a) => a.at <= end);
      return {
        answers: spread(answered.map((a) => a.ms)),
        outcomes: tally(answered.map((a) => a.answer)),
        within: within.length,
        after: answered.length - within.length,
        seconds: (end - started) / 1000,
        ranOutAfter: ranOut === null ? null : (ranOut - started) / 1000,
      };
    },
  };
}
