/**
 * A browser whose camera films a barcode (docs: scanner-testing.md): frames
 * made in code (barcode-frames.ts), written as a Y4M video that Chromium
 * plays, in a loop, to every getUserMedia caller.
 *
 *   import { expect, test } from "./support/fake-camera.ts";
 *   test.use({ camera: { code: "7310865004703" } });   // what every test of the file starts with
 *   test("…", async ({ page, showOnCamera }) => {
 *     showOnCamera({ code: "96385074", symbology: "ean8", kind: "noisy" });
 *
 * Chromium is started with a camera file of its own (one per worker) and
 * opens that file again each time a page starts the camera, so
 * `showOnCamera` takes effect at the next getUserMedia (a scanner already
 * running keeps the picture it has). Each test starts with the `camera`
 * option's scene; without one, a label that has no code.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LaunchOptions } from "@playwright/test";
import { test as base, expect } from "../fixtures.ts";
import { cameraFrame, encode, type FrameKind, type Symbology, y4mVideo } from "./barcode-frames.ts";

export interface CameraScene {
  /** The code as `encode` takes it: digits with or without the check digit, or Code 128 text; null: a label with no code. */
  code: string | null;
  /** EAN-13 unless said otherwise. */
  symbology?: Symbology;
  /** The recipe's frame kind; clean unless said otherwise. */
  kind?: FrameKind;
  /** Length of the video before Chromium loops it. */
  seconds?: number;
}

/** The scanner reads ten frames a second; the video gives it as many. */
const FPS = 10;
/** Under the run's own data folder (playwright.config.ts makes a fresh one per run), so no run sees another's videos. */
const dir = () => path.join(process.env.E2E_DATA_DIR ?? path.join(tmpdir(), "glide-e2e"), "fake-camera");
/** What the camera films until a test shows something: a label without bars. */
const NOTHING: CameraScene = { code: null };

/**
 * The scene's video as an absolute file path, written the first time the
 * run asks for it. The frames depend only on the scene, so a file already
 * there is the same video; it is written under another name and renamed,
 * so a browser never opens half a file.
 */
export function cameraVideo(scene: CameraScene): string {
  const { symbology = "ean13", kind = "clean", seconds = 2 } = scene;
  const symbol =
    scene.code === null
      ? { ...encode("ean13", "000000000000"), text: "", modules: "0".repeat(95) }
      : encode(symbology, scene.code);
  const id = createHash("sha256").update(`${symbology}\n${symbol.text}`).digest("hex").slice(0, 16);
  const file = path.join(dir(), `${scene.code === null ? "none" : symbology}-${id}-${kind}-${seconds}s.y4m`);
  if (existsSync(file)) return file;
  mkdirSync(dir(), { recursive: true });
  const frames = Array.from({ length: seconds * FPS }, (_, index) => cameraFrame(symbol, kind, index));
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, y4mVideo(frames, FPS));
  renameSync(partial, file);
  return file;
}

/** Puts the scene's video in `file` in one step (a copy, then a rename), so Chromium never opens half a file. */
export function showOn(file: string, scene: CameraScene): void {
  const partial = `${file}.partial`;
  copyFileSync(cameraVideo(scene), partial);
  renameSync(partial, file);
}

/** Chromium's switches for a camera that plays `file` without asking the user. */
export function fakeCameraArgs(file: string): string[] {
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-video-capture=${file}`,
  ];
}

/** The project's launch options with the camera playing `scene`. */
export function cameraPlaying(scene: CameraScene, launchOptions: LaunchOptions = {}): LaunchOptions {
  return { ...launchOptions, args: [...(launchOptions.args ?? []), ...fakeCameraArgs(cameraVideo(scene))] };
}

/** The specs' `test` (console errors fail a test) with a camera that films what the test chooses. */
export const test = base.extend<
  { showOnCamera: (scene: CameraScene) => void },
  { camera: CameraScene | null; cameraFile: string }
>({
  camera: [null, { scope: "worker", option: true }],
  cameraFile: [
    async ({ camera }, use, workerInfo) => {
      mkdirSync(dir(), { recursive: true });
      const file = path.join(dir(), `camera-${workerInfo.workerIndex}.y4m`);
      showOn(file, camera ?? NOTHING);
      await use(file);
      rmSync(file, { force: true });
    },
    { scope: "worker" },
  ],
  launchOptions: [
    async ({ launchOptions, cameraFile }, use) => {
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), ...fakeCameraArgs(cameraFile)] });
    },
    { scope: "worker" },
  ],
  showOnCamera: [
    async ({ camera, cameraFile }, use) => {
      showOn(cameraFile, camera ?? NOTHING);
      await use((scene) => showOn(cameraFile, scene));
    },
    { auto: true },
  ],
});

export { expect };
