import { Worker } from "node:worker_threads";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupPhotos } from "../../test/face-samples.ts";
import { FACE_MATCH_THRESHOLD, faceDistance } from "./face-match.ts";
import { createFaceModel, type FaceModel, FaceModelError, type WorkerAnswer } from "./face-model.ts";

/**
 * The face model in its worker thread, on the sample photos of an npm
 * package: it finds each face with a descriptor, answers a picture that is
 * not one with an error and lives on, and never lets a burst or a slow
 * answer hold a caller past its time.
 */
let model: FaceModel;
let photos: Buffer[];

beforeAll(async () => {
  model = createFaceModel({ nice: 0 });
  photos = await groupPhotos();
}, 60_000);
afterAll(() => model.close());

const failureOf = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FaceModelError);
  return (err as FaceModelError).failure;
};

describe("the face model", () => {
  it("finds every face of a group photo, largest first, each with a 1024-number descriptor of its own", async () => {
    const found = await model.find(photos[0] as Buffer);
    expect(found.width).toBe(1280);
    expect(found.faces).toHaveLength(3);
    const areas = found.faces.map((f) => f.box[2] * f.box[3]);
    expect(areas).toEqual([...areas].sort((a, b) => b - a));
    for (const face of found.faces) {
      expect(face.descriptor).toHaveLength(1024);
      expect(face.score).toBeGreaterThan(0.3);
    }
    const [a, b, c] = found.faces.map((f) => f.descriptor) as [Float32Array, Float32Array, Float32Array];
    expect(faceDistance(a, a)).toBeCloseTo(0, 5);
    expect(Math.min(faceDistance(a, b), faceDistance(a, c), faceDistance(b, c))).toBeGreaterThan(0.7);
  }, 60_000);

  it("knows a face cut out of the photo as the same face, and finds none on an empty wall", async () => {
    const whole = await model.find(photos[0] as Buffer);
    const [x, y, w, h] = (whole.faces[0] as (typeof whole.faces)[0]).box;
    const cut = await sharp(photos[0])
      .extract({
        left: Math.round(x - w / 2),
        top: Math.round(y - h / 2),
        width: Math.round(w * 2),
        height: Math.round(h * 2),
      })
      .jpeg()
      .toBuffer();
    const alone = await model.find(cut);
    expect(alone.faces.length).toBeGreaterThanOrEqual(1);
    const same = faceDistance(alone.faces[0]?.descriptor as Float32Array, whole.faces[0]?.descriptor as Float32Array);
    expect(same).toBeLessThan(FACE_MATCH_THRESHOLD);
    const wall = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#7a8b6c" } })
      .jpeg()
      .toBuffer();
    expect((await model.find(wall)).faces).toEqual([]);
  }, 60_000);

  it("answers a picture that is not one with not_a_picture, and goes on looking at the next", async () => {
    expect(await failureOf(model.find(Buffer.from("not a picture at all")))).toBe("not_a_picture");
    const truncated = (photos[1] as Buffer).subarray(0, 2_000);
    expect(await failureOf(model.find(truncated))).toBe("not_a_picture");
    expect(await failureOf(model.find(new Uint8Array(0)))).toBe("not_a_picture");
    expect((await model.find(photos[1] as Buffer)).faces.length).toBe(3);
  }, 60_000);

  it("refuses a picture of more pixels than it decodes", async () => {
    const small = createFaceModel({ maxInputPixels: 100 * 100 });
    try {
      expect(await failureOf(small.find(photos[0] as Buffer))).toBe("not_a_picture");
    } finally {
      await small.close();
    }
  });

  it("a thread given pixels that are not a picture answers an error and answers the next one", async () => {
    const thread = new Worker(new URL("./face-model.worker.ts", import.meta.url));
    const answers: WorkerAnswer[] = [];
    const next = () =>
      new Promise<WorkerAnswer>((resolve) => {
        thread.once("message", (answer: WorkerAnswer) => {
          answers.push(answer);
          resolve(answer);
        });
      });
    try {
      // On Linux the thread runs at niceness 10, so the service's requests come first when the CPU is short.
      expect(await next()).toEqual({ ready: true, nice: process.platform === "linux" ? 10 : null });
      thread.postMessage({ id: 1, width: 10, height: 10, pixels: new ArrayBuffer(7) });
      expect(await next()).toMatchObject({ id: 1, error: expect.stringContaining("not a picture") });
      thread.postMessage({ id: 2, width: -1, height: 3, pixels: new ArrayBuffer(0) });
      expect(await next()).toMatchObject({ id: 2, error: expect.any(String) });
      const { data, info } = await sharp(photos[2]).raw().toBuffer({ resolveWithObject: true });
      const pixels = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
      thread.postMessage({ id: 3, width: info.width, height: info.height, pixels }, [pixels as ArrayBuffer]);
      const answer = await next();
      expect(answer).toMatchObject({ id: 3 });
      expect("faces" in answer && answer.faces.length).toBe(3);
    } finally {
      await thread.terminate();
    }
  }, 60_000);

  it("a caller whose time runs out is answered at once; pictures past the waiting limit are refused as busy", async () => {
    const busy = createFaceModel({ maxWaiting: 2, nice: 0 });
    try {
      // Started, so that what follows measures waiting and not the models loading.
      await busy.find(photos[3] as Buffer);
      const late = busy.find(photos[3] as Buffer, { signal: AbortSignal.timeout(1) });
      const second = busy.find(photos[4] as Buffer);
      const third = busy.find(photos[5] as Buffer);
      expect(await failureOf(third)).toBe("busy");
      expect(await failureOf(late)).toBe("timeout");
      expect((await second).faces.length).toBeGreaterThan(0);
      // The late picture was still looked at, then let go: the limit counts it until then, and no longer.
      expect((await busy.find(photos[5] as Buffer)).faces.length).toBe(4);
      const gone = new AbortController();
      gone.abort();
      expect(await failureOf(busy.find(photos[5] as Buffer, { signal: gone.signal }))).toBe("timeout");
    } finally {
      await busy.close();
    }
  }, 60_000);

  it("a closed model answers what was waiting, and starts a new thread for the next picture", async () => {
    const once = createFaceModel({ nice: 0 });
    try {
      const waiting = once.find(photos[0] as Buffer);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await once.close();
      expect(await failureOf(waiting)).toBe("model");
      expect((await once.find(photos[0] as Buffer)).faces).toHaveLength(3);
      // A picture asked for while the old thread is still stopping belongs to the new one: the old one's end
      // does not answer it.
      const closing = once.close();
      const next = once.find(photos[0] as Buffer);
      await closing;
      expect((await next).faces).toHaveLength(3);
    } finally {
      await once.close();
    }
  }, 60_000);
});
