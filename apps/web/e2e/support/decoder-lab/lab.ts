/**
 * A page for tests and the bench only (never part of the app's build):
 * the shopper scanner's decoder, and ZXing's JavaScript port beside it, on
 * frames the Node side sends or on the camera. Built by decoder-lab.ts.
 */
import { SCAN_BOX, SHOPPER_TIMING } from "@glide/contracts/shopper";
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from "@zxing/library";
import { BarcodeDetector, prepareZXingModule } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";
import { createFrameReader, type Region } from "../../../src/shopper/scanner/decoder.ts";
import { type CameraRead, type DecoderLab, LAB_GLOBAL, type LabEngine, type Measured } from "./protocol.ts";

// The ponyfill's own copy of ZXing, for the recipe's whole-frame row: its .wasm from this page's origin too.
prepareZXingModule({
  overrides: { locateFile: (file: string, prefix: string) => (file.endsWith(".wasm") ? wasmUrl : prefix + file) },
});

/** The shopping page's scan box: 70 % of the smaller side, centred (as barcode-scanner.tsx computes it). */
function scanBox(width: number, height: number): Region {
  const side = Math.round(Math.min(width, height) * SCAN_BOX.shopShare);
  return { x: (width - side) / 2, y: (height - side) / 2, width: side, height: side };
}

type Read = (canvas: HTMLCanvasElement) => Promise<string | null>;

/** ZXing's JavaScript port on the whole frame: retail formats, try-harder, hybrid binariser. */
function zxingJs(): Read {
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [
      DecodeHintType.POSSIBLE_FORMATS,
      [BarcodeFormat.EAN_13, BarcodeFormat.EAN_8, BarcodeFormat.UPC_A, BarcodeFormat.UPC_E, BarcodeFormat.CODE_128],
    ],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  return async (canvas) => {
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const luminance = new Uint8ClampedArray(canvas.width * canvas.height);
    for (let i = 0; i < luminance.length; i++) {
      luminance[i] = (data[i * 4]! * 306 + data[i * 4 + 1]! * 601 + data[i * 4 + 2]! * 117) >> 10;
    }
    const source = new RGBLuminanceSource(luminance, canvas.width, canvas.height);
    try {
      return reader.decodeWithState(new BinaryBitmap(new HybridBinarizer(source))).getText();
    } catch {
      return null;
    } finally {
      reader.reset();
    }
  };
}

async function engineRead(engine: LabEngine): Promise<{ read: Read; name: string }> {
  if (engine === "zxing-js") return { read: zxingJs(), name: "zxing-js" };
  const reader = await createFrameReader(engine === "ours" ? {} : { engine: "zxing-wasm" });
  if (engine === "detector-frame") {
    const detector = new BarcodeDetector({ formats: ["ean_13", "ean_8", "upc_a", "upc_e", "code_128"] });
    return {
      name: "zxing-wasm",
      read: async (canvas) => (await detector.detect(canvas).catch(() => []))[0]?.rawValue ?? null,
    };
  }
  return { read: (canvas) => reader.read(canvas, scanBox(canvas.width, canvas.height)), name: reader.engine };
}

async function measure(name: string, engine: LabEngine, frame: { width: number; height: number }): Promise<Measured> {
  const answer = await fetch(`/frames/${encodeURIComponent(name)}.gray`);
  if (!answer.ok) throw new Error(`/frames/${name}.gray: ${answer.status}`);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const size = frame.width * frame.height;
  const canvas = document.createElement("canvas");
  canvas.width = frame.width;
  canvas.height = frame.height;
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  const picture = context.createImageData(frame.width, frame.height);
  const show = (index: number) => {
    for (let i = 0; i < size; i++) {
      const v = bytes[index * size + i]!;
      picture.data[i * 4] = v;
      picture.data[i * 4 + 1] = v;
      picture.data[i * 4 + 2] = v;
      picture.data[i * 4 + 3] = 255;
    }
    context.putImageData(picture, 0, 0);
  };
  const { read, name: engineName } = await engineRead(engine);
  // One read first, not counted: the first one also compiles the WebAssembly.
  show(0);
  await read(canvas);
  const result: Measured = { engine: engineName, reads: [], ms: [] };
  for (let index = 0; index < bytes.length / size; index++) {
    show(index);
    const started = performance.now();
    result.reads.push(await read(canvas));
    result.ms.push(performance.now() - started);
  }
  return result;
}

async function camera(options: { timeoutMs: number; region: "scan-box" | "top-left-corner" }): Promise<CameraRead> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  });
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  document.body.append(video);
  try {
    await video.play();
    const reader = await createFrameReader();
    const until = performance.now() + options.timeoutMs;
    let frames = 0;
    let code: string | null = null;
    while (!code && performance.now() < until) {
      const region =
        options.region === "scan-box"
          ? scanBox(video.videoWidth, video.videoHeight)
          : { x: 0, y: 0, width: video.videoWidth / 5, height: video.videoHeight / 5 };
      code = await reader.read(video, region);
      frames++;
      if (!code) await new Promise((resolve) => setTimeout(resolve, 1000 / SHOPPER_TIMING.scanFramesPerSecond));
    }
    return { code, width: video.videoWidth, height: video.videoHeight, engine: reader.engine, frames };
  } finally {
    for (const track of stream.getTracks()) track.stop();
    video.remove();
  }
}

const lab: DecoderLab = { measure, camera };
Object.assign(globalThis, { [LAB_GLOBAL]: lab });
