/**
 * The face model's thread. It loads the models once (from the npm packages
 * on disk: nothing is downloaded) and then answers one picture at a time:
 * its pixels in, the faces found with their descriptors out. It never sees a
 * file name, a visit or a person, and it keeps nothing between pictures
 * (the model's frame cache is off, so every answer comes from its own
 * picture). A picture it cannot read gets an error answer; the thread lives on.
 */
import { readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import type { ModelPicture, WorkerAnswer, WorkerFace } from "./face-model.ts";

const require = createRequire(import.meta.url);

// The package's `exports` names no subpath Node accepts, so its files are found from the package's main entry.
const humanDist = path.dirname(require.resolve("@vladmandic/human"));
const MODELS = path.join(humanDist, "..", "models");
const WASM = `${path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))}/`;

type Tensor = { dispose(): void };
type Tf = {
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype: "float32"): Tensor;
  io: {
    registerLoadRouter(router: (url: string | string[]) => unknown): void;
    getModelArtifactsForJSON(
      json: { weightsManifest: { paths: string[] }[] },
      loadWeights: (manifest: { paths: string[]; weights: unknown[] }[]) => Promise<[unknown[], ArrayBuffer]>,
    ): Promise<unknown>;
  };
};
type HumanFace = { box: [number, number, number, number]; score: number; embedding?: number[] };
type Human = {
  load(): Promise<void>;
  models: { loaded(): string[] };
  detect(input: Tensor): Promise<{ face: HumanFace[]; error?: string | null }>;
};

const tf: Tf = require("@tensorflow/tfjs-core");

/** Models are read from the package's folder with the file system; a URL outside it is not ours to load. */
tf.io.registerLoadRouter((url) => {
  if (typeof url !== "string" || !url.startsWith("file://")) return null;
  const file = new URL(url).pathname;
  if (!file.startsWith(`${MODELS}${path.sep}`)) return null;
  return {
    load: async () => {
      const json = JSON.parse(await readFile(file, "utf8"));
      return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const parts = await Promise.all(
          manifest.flatMap((group) => group.paths).map((p) => readFile(path.join(path.dirname(file), p))),
        );
        const all = Buffer.concat(parts);
        return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
      });
    },
  };
});

const { Human } = require(path.join(humanDist, "human.node-wasm.js")) as {
  Human: new (config: object) => Human;
};

const human = new Human({
  backend: "wasm",
  wasmPath: WASM,
  modelBasePath: `file://${MODELS}/`,
  debug: false,
  // Every picture is answered from itself: no frame cache, no skipped detections.
  cacheSensitivity: 0,
  warmup: "none",
  face: {
    enabled: true,
    detector: { rotation: true, maxDetected: 10, minConfidence: 0.3, skipFrames: 0, skipTime: 0 },
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true, skipFrames: 0, skipTime: 0 },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
});

async function describe(picture: ModelPicture): Promise<WorkerFace[]> {
  const { width, height, pixels } = picture;
  const bytes = new Uint8Array(pixels);
  if (!(width > 0 && height > 0 && bytes.length === width * height * 3)) throw new Error("not a picture of RGB pixels");
  const input = tf.tensor4d(Float32Array.from(bytes), [1, height, width, 3], "float32");
  try {
    const result = await human.detect(input);
    if (result.error) throw new Error(result.error);
    return result.face
      .filter((face) => face.embedding && face.embedding.length > 0)
      .map((face) => ({ box: face.box, score: face.score, descriptor: Float32Array.from(face.embedding ?? []) }));
  } finally {
    input.dispose();
  }
}

const port = parentPort;
if (!port) throw new Error("face-model.worker.ts runs as a worker thread");

/** The thread's niceness: 10 of Linux's 19 below the process's 0, unless the model was made with another. */
const FACE_THREAD_NICE: number = (workerData as { nice?: number } | null)?.nice ?? 10;

/**
 * This thread yields the CPU to the service's requests: on Linux a thread has
 * a priority of its own (its id from /proc/thread-self), so a face check
 * waits while requests are served instead of taking a core from them. Where
 * that cannot be done the thread runs at the process's priority (null).
 */
function yieldToRequests(): number | null {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(threadId, FACE_THREAD_NICE);
    return os.getPriority(threadId);
  } catch {
    return null;
  }
}
const nice = yieldToRequests();

// One picture at a time, in the order they came: the model is not re-entrant.
let queue = Promise.resolve();
// The model logs a model it could not load and goes on without it: a thread without all three is not ready.
const NEEDED = ["blazeface", "facemesh", "faceres"];
const loaded = human.load().then(() => {
  const missing = NEEDED.filter((name) => !human.models.loaded().includes(name));
  if (missing.length > 0) throw new Error(`face models not loaded: ${missing.join(", ")}`);
});
loaded.then(
  () => port.postMessage({ ready: true, nice } satisfies WorkerAnswer),
  (error: unknown) => port.postMessage({ failed: String((error as Error)?.message ?? error) } satisfies WorkerAnswer),
);

port.on("message", (picture: ModelPicture) => {
  queue = queue.then(async () => {
    try {
      await loaded;
      const faces = await describe(picture);
      port.postMessage(
        { id: picture.id, faces } satisfies WorkerAnswer,
        faces.map((face) => face.descriptor.buffer as ArrayBuffer),
      );
    } catch (error) {
      port.postMessage({ id: picture.id, error: String((error as Error)?.message ?? error) } satisfies WorkerAnswer);
    }
  });
});
