/**
 * Faces in a picture, found on this machine's CPU: the picture (JPEG or PNG
 * bytes) is decoded here with sharp, off the event loop, and its pixels go
 * to one worker thread that runs the face model (face-model.worker.ts), so a
 * second of model time never holds up a request. The thread starts at the
 * first picture, loads the models once, and is started again after it dies.
 * A picture waits behind at most `maxWaiting` others; past that, or past its
 * caller's signal, the caller gets an answer at once (busy, too late) and
 * the store falls back to what it does without a face check.
 */
import { Worker } from "node:worker_threads";
import sharp from "sharp";

/** A face found: its box in the picture as decoded (upright, at most maxSide), the detector's score, its descriptor. */
export type FoundFace = {
  box: [x: number, y: number, width: number, height: number];
  score: number;
  descriptor: Float32Array;
};

/** Between this module and its thread. */
export type ModelPicture = { id: number; width: number; height: number; pixels: ArrayBuffer };
export type WorkerFace = FoundFace;
export type WorkerAnswer =
  | { ready: true; nice: number | null }
  | { failed: string }
  | { id: number; faces: WorkerFace[] }
  | { id: number; error: string };

export type FaceModelFailure = "not_a_picture" | "busy" | "timeout" | "model";

export class FaceModelError extends Error {
  readonly failure: FaceModelFailure;
  constructor(failure: FaceModelFailure, message: string) {
    super(message);
    this.name = "FaceModelError";
    this.failure = failure;
  }
}

/** A picture's faces, largest first, and the size of the picture as decoded (the boxes' frame). */
export type FacesFound = { width: number; height: number; faces: FoundFace[] };

/** Which model made a descriptor: descriptors of two models are never compared. */
export const FACE_MODEL_ID = "human-3.3-faceres";

export interface FaceModel {
  /** The faces in a picture (JPEG, PNG, WebP bytes). Rejects with a FaceModelError. */
  find(picture: Uint8Array, opts?: { signal?: AbortSignal }): Promise<FacesFound>;
  /** Stops the thread; pictures still waiting are answered with "model". */
  close(): Promise<void>;
}

export type FaceModelOptions = {
  /** Pictures taken in at once (one in the model, the rest waiting); more are refused as busy. */
  maxWaiting?: number;
  /** A larger picture is scaled down to this many pixels on its longer side first. */
  maxSide?: number;
  /** A picture of more pixels than this is not decoded at all. */
  maxInputPixels?: number;
  /**
   * The thread's niceness on Linux (10: the service's requests come first). Tests pass 0: they share the
   * machine with other test processes at 0, which a server does not.
   */
  nice?: number;
};

const WORKER = new URL("./face-model.worker.ts", import.meta.url);

type Waiting = { resolve: (faces: FoundFace[]) => void; reject: (error: Error) => void };

const area = (face: FoundFace) => face.box[2] * face.box[3];

/** Decodes a picture to upright RGB pixels of at most maxSide per side. */
async function decode(picture: Uint8Array, maxSide: number, maxInputPixels: number) {
  try {
    const { data, info } = await sharp(picture, { limitInputPixels: maxInputPixels, failOn: "error" })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`${info.channels} channels`);
    const pixels = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    return { width: info.width, height: info.height, pixels };
  } catch (error) {
    throw new FaceModelError("not_a_picture", `The picture could not be read: ${(error as Error).message}`);
  }
}

export function createFaceModel(options: FaceModelOptions = {}): FaceModel {
  const maxWaiting = options.maxWaiting ?? 4;
  const maxSide = options.maxSide ?? 1280;
  const maxInputPixels = options.maxInputPixels ?? 40_000_000;
  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();

  const failAll = (why: string) => {
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      entry.reject(new FaceModelError("model", why));
    }
  };

  const start = (): Promise<void> => {
    if (ready) return ready;
    const thread = new Worker(WORKER, { workerData: { nice: options.nice ?? 10 } });
    thread.unref();
    worker = thread;
    ready = new Promise<void>((resolve, reject) => {
      const gone = (why: string) => {
        reject(new FaceModelError("model", why));
        // A thread closed or replaced already had its pictures answered; those waiting now are a newer thread's.
        if (worker !== thread) return;
        worker = null;
        ready = null;
        failAll(why);
      };
      thread.on("message", (answer: WorkerAnswer) => {
        if ("ready" in answer) return resolve();
        if ("failed" in answer) {
          void thread.terminate();
          return gone(`The face model could not start: ${answer.failed}`);
        }
        const entry = waiting.get(answer.id);
        waiting.delete(answer.id);
        if (!entry) return;
        if ("error" in answer) entry.reject(new FaceModelError("not_a_picture", answer.error));
        else entry.resolve(answer.faces.sort((a, b) => area(b) - area(a)));
      });
      thread.on("error", (error) => gone(`The face model stopped: ${error.message}`));
      thread.on("exit", (code) => gone(`The face model stopped (exit ${code}).`));
    });
    // A start that fails is reported to the pictures waiting for it; nobody else awaits this one.
    ready.catch(() => {});
    return ready;
  };

  return {
    async find(picture, opts = {}) {
      const { signal } = opts;
      if (signal?.aborted) throw new FaceModelError("timeout", "The picture's time ran out before it was looked at.");
      if (waiting.size >= maxWaiting) throw new FaceModelError("busy", "The face model has too many pictures waiting.");
      const id = nextId++;
      // Taken before the decode, so a burst cannot decode more pictures than the thread would take.
      const answer = new Promise<FoundFace[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      answer.catch(() => {});
      let size = { width: 0, height: 0 };
      try {
        const decoded = await decode(picture, maxSide, maxInputPixels);
        size = { width: decoded.width, height: decoded.height };
        await start();
        if (!waiting.has(id)) return { ...size, faces: await answer };
        if (signal?.aborted) throw new FaceModelError("timeout", "The picture's time ran out before it was looked at.");
        worker?.postMessage({ id, ...decoded } satisfies ModelPicture, [decoded.pixels]);
      } catch (error) {
        waiting.delete(id);
        throw error;
      }
      const faces = signal
        ? await new Promise<FoundFace[]>((resolve, reject) => {
            const late = () => reject(new FaceModelError("timeout", "The face model did not answer in time."));
            signal.addEventListener("abort", late, { once: true });
            answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", late));
          })
        : await answer;
      return { ...size, faces };
    },
    async close() {
      const thread = worker;
      worker = null;
      ready = null;
      failAll("The face model was closed.");
      await thread?.terminate();
    },
  };
}
