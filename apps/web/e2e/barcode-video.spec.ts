/**
 * The scanner's whole reading path in a real browser: Chromium's camera
 * plays a barcode video made in code (support/fake-camera.ts), getUserMedia
 * gives its frames to a <video>, and the shopper scanner's decoder
 * (src/shopper/scanner/decoder.ts) reads the scan box ten times a second.
 * The decoder runs in the decoder lab page, built and served for this
 * worker only (support/decoder-lab.ts).
 */

import type { CameraRead, DecoderLab } from "./support/decoder-lab/protocol.ts";
import { LAB_GLOBAL } from "./support/decoder-lab/protocol.ts";
import { type DecoderLabServer, startDecoderLab } from "./support/decoder-lab.ts";
import { test as cameraTest, expect } from "./support/fake-camera.ts";

const test = cameraTest.extend<object, { lab: DecoderLabServer }>({
  lab: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const lab = await startDecoderLab();
      await use(lab);
      await lab.close();
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

type Options = Parameters<DecoderLab["camera"]>[0];

async function readCamera(page: import("@playwright/test").Page, lab: DecoderLabServer, options: Options) {
  await page.goto(lab.url);
  await page.waitForFunction((global) => global in globalThis, LAB_GLOBAL);
  return page.evaluate(
    ([global, options]) => (globalThis as unknown as Record<string, DecoderLab>)[global]!.camera(options),
    [LAB_GLOBAL, options] as const,
  ) as Promise<CameraRead>;
}

test("a clean EAN-13 before the camera is read from the scan box, exactly", async ({ page, lab, showOnCamera }) => {
  showOnCamera({ code: "7310865004703" });
  const read = await readCamera(page, lab, { timeoutMs: 10_000, region: "scan-box" });
  expect(read.code).toBe("7310865004703");
  // The camera gives the video's own size whatever the scanner asks for (1920×1080 ideal).
  expect([read.width, read.height]).toEqual([640, 480]);
  expect(["native", "zxing-wasm"]).toContain(read.engine);
});

test("the code is not read from a corner of the picture it is not in", async ({ page, lab, showOnCamera }) => {
  showOnCamera({ code: "7310865004703" });
  const read = await readCamera(page, lab, { timeoutMs: 1_500, region: "top-left-corner" });
  expect(read.code).toBeNull();
  expect(read.frames).toBeGreaterThan(5);
});

test("a label with no code gives no code", async ({ page, lab }) => {
  const read = await readCamera(page, lab, { timeoutMs: 1_500, region: "scan-box" });
  expect(read.code).toBeNull();
  expect(read.frames).toBeGreaterThan(5);
});

test("a noisy EAN-8 is read, and a code shown next is what the next camera start films", async ({
  page,
  lab,
  showOnCamera,
}) => {
  showOnCamera({ code: "96385074", symbology: "ean8", kind: "noisy" });
  expect((await readCamera(page, lab, { timeoutMs: 10_000, region: "scan-box" })).code).toBe("96385074");
  showOnCamera({ code: "036000291452", symbology: "upca", kind: "tilted" });
  const upc = await readCamera(page, lab, { timeoutMs: 10_000, region: "scan-box" });
  // ZXing sends a UPC-A as its 13-digit GTIN, a native detector as 12 digits: the same GTIN either way.
  expect(upc.code?.padStart(14, "0")).toBe("00036000291452");
});
