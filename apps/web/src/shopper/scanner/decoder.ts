/*
 * Reads retail barcodes out of camera frames. The browser's own
 * BarcodeDetector is used where it exists (Android Chrome, Safari 17+);
 * elsewhere ZXing's WebAssembly build (zxing-wasm, the engine inside the
 * barcode-detector ponyfill, called directly so its options can be chosen),
 * its .wasm file served from our own origin. This module is loaded only when
 * the shopper starts scanning, never on the first render.
 */
import type { ReaderOptions } from "zxing-wasm/reader";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

/** What a shop's goods carry: GTINs, fresh-food DataBar and Code 128 labels. */
export const RETAIL_FORMATS = [
  "ean_13",
  "ean_8",
  "upc_a",
  "upc_e",
  "code_128",
  "databar",
  "databar_limited",
  "databar_expanded",
] as const;

/** The same formats by ZXing's names. */
const ZXING_FORMATS: NonNullable<ReaderOptions["formats"]> = [
  "EAN13",
  "EAN8",
  "UPCA",
  "UPCE",
  "Code128",
  "DataBar",
  "DataBarLtd",
  "DataBarExp",
];

/**
 * ZXing's options for a camera frame: look sideways too, but stop at the
 * first code, never look for light-on-dark codes (retail labels are dark on
 * light, and that search doubles the cost of a frame with no code) and
 * leave the scales to the passes of `createFrameReader`.
 */
const ZXING_OPTIONS: ReaderOptions = {
  formats: ZXING_FORMATS,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: false,
  maxNumberOfSymbols: 1,
  textMode: "Plain",
};

export interface Region {
  /** Left edge, in the source's own pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A frame source with a known pixel size: a playing <video>, a canvas or a bitmap. */
export type FrameSource = HTMLVideoElement | HTMLCanvasElement | ImageBitmap | OffscreenCanvas;

interface Detector {
  detect(image: ImageBitmapSource): Promise<Array<{ rawValue: string; format: string }>>;
}

interface DetectorClass {
  new (options?: { formats?: string[] }): Detector;
  getSupportedFormats(): Promise<readonly string[]>;
}

export interface FrameReader {
  /** Which engine reads: the browser's own, or ZXing in WebAssembly. */
  readonly engine: "native" | "zxing-wasm";
  /** The code inside `region` of `source`, or null when none could be read. */
  read(source: FrameSource, region: Region): Promise<string | null>;
}

/** A pass's ZXing options beyond ZXING_OPTIONS (the native detector has none to set). */
interface Pass {
  /** Scan the whole box (up to 256 rows) rather than 15 rows across its middle half: slower, finds more. */
  thorough: boolean;
  /** Rows that must agree on the code. */
  lines: number;
  /** Also read columns, for a code held sideways. */
  rotate: boolean;
}

const QUICK: Pass = { thorough: false, lines: 2, rotate: true };
const THOROUGH: Pass = { thorough: true, lines: 2, rotate: true };
// Sharpened along rows only, so only rows are worth reading; three rows must agree, not two.
const SHARPENED: Pass = { thorough: true, lines: 3, rotate: false };

/** Far more pixels than a barcode needs: a 4K frame's box is read at most this wide. */
const MAX_SIDE = 1024;
/** The half-size pass is skipped when it would leave the box narrower than this. */
const MIN_SIDE = 120;
/**
 * The sharpened pass works on the full-size box up to this width, else on
 * the half-size one: its kernel suits modules of about 2–4 pixels (a code
 * filling the box of a 640×480 or 1280×720 frame), and fewer pixels cost less.
 */
const SHARPEN_FULL_UP_TO = 600;
/**
 * Unsharp mask along rows: luma + AMOUNT × (luma − local mean), the mean a
 * box of 2·RADIUS+1 pixels applied twice; the check reading sharpens less.
 * Stronger sharpening read a little more blur but made more wrong codes.
 */
const SHARPEN_AMOUNT = 3;
const SHARPEN_CHECK_AMOUNT = 2;
const SHARPEN_RADIUS = 2;
/** The check reading of a code read at half size: the box at this scale. */
const HALF_CHECK_SCALE = 0.67;

function sourceSize(source: FrameSource): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  return { width: source.width, height: source.height };
}

async function nativeDetector(): Promise<DetectorClass | null> {
  const native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!native) return null;
  try {
    const supported = await native.getSupportedFormats();
    // Some desktop builds expose the class but read nothing (no formats).
    return supported.includes("ean_13") ? native : null;
  } catch {
    return null;
  }
}

type Decode = (image: ImageData, pass: Pass) => Promise<string | null>;

async function nativeDecode(Native: DetectorClass): Promise<Decode> {
  const supported = new Set(await Native.getSupportedFormats());
  const detector = new Native({ formats: RETAIL_FORMATS.filter((format) => supported.has(format)) });
  return async (image) => (await detector.detect(image))[0]?.rawValue || null;
}

async function wasmDecode(): Promise<Decode> {
  const { prepareZXingModule, readBarcodes } = await import("zxing-wasm/reader");
  // Loaded now rather than on the first frame, so a missing .wasm is a scanner that cannot start.
  await prepareZXingModule({
    overrides: {
      locateFile: (file: string, prefix: string) => (file.endsWith(".wasm") ? wasmUrl : prefix + file),
    },
    fireImmediately: true,
  });
  return async (image, pass) => {
    const options = {
      ...ZXING_OPTIONS,
      tryHarder: pass.thorough,
      minLineCount: pass.lines,
      tryRotate: pass.rotate,
    };
    return (await readBarcodes(image, options)).find((result) => result.isValid)?.text || null;
  };
}

/**
 * The picture sharpened along rows into `target` (gray, its alpha already
 * opaque): each pixel's luma plus `amount` times its difference from the
 * row's local mean. Along rows only: blur across the bars is what hides
 * them, and it is half the work.
 */
function sharpenRows(source: ImageData, target: ImageData, amount: number): ImageData {
  const { width, height, data } = source;
  const out = target.data;
  const span = 2 * SHARPEN_RADIUS + 1;
  const pad = 2 * SHARPEN_RADIUS;
  // A row's luma with its end pixels repeated `pad` times on each side, then running sums of `span` of them, twice.
  const luma = new Float32Array(width + 2 * pad + 1);
  const once = new Float32Array(width + pad + 1);
  const scale = 1 / (span * span);
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    for (let x = 0; x < width; x++) {
      const i = row + x * 4;
      luma[x + pad] = data[i]! * 0.299 + data[i + 1]! * 0.587 + data[i + 2]! * 0.114;
    }
    luma.fill(luma[pad]!, 0, pad);
    luma.fill(luma[pad + width - 1]!, pad + width, 2 * pad + width);
    let sum = 0;
    for (let k = 0; k < span; k++) sum += luma[k]!;
    for (let j = 0; j < width + pad; j++) {
      once[j] = sum;
      sum += luma[j + span]! - luma[j]!;
    }
    sum = 0;
    for (let k = 0; k < span; k++) sum += once[k]!;
    for (let x = 0; x < width; x++) {
      const value = luma[x + pad]!;
      const sharp = value + amount * (value - sum * scale);
      const i = row + x * 4;
      out[i] = sharp;
      out[i + 1] = sharp;
      out[i + 2] = sharp;
      sum += once[x + span]! - once[x]!;
    }
  }
  return target;
}

/**
 * One reader per scanner: it owns a scratch canvas and picture.
 *
 * Each frame's scan box goes through up to three passes, until one reads
 * (the figures behind each choice are in bench/results.md, Decoder):
 * 1. the box at the camera's full resolution, 15 rows across its middle: a
 *    small or distant code keeps every pixel it has, and a plain code is
 *    read in about a millisecond;
 * 2. the box at half size, the whole of it, rows and columns: averaging
 *    2×2 pixels halves sensor noise, which makes a noisy frame (a dim corner
 *    at high ISO) readable;
 * 3. the box sharpened along its rows, the whole of it: it restores the
 *    narrow bars an out-of-focus lens has smeared into grey.
 * A frame without a code costs all three. What passes 2 and 3 read counts
 * only if a second reading, prepared differently, reads the same code
 * (HALF_CHECK_SCALE, SHARPEN_CHECK_AMOUNT): near the limit of what noise
 * and blur leave readable, ZXing now and then makes another valid code of
 * what it sees, and rarely the same one twice.
 */
export async function createFrameReader(options: { engine?: "native" | "zxing-wasm" } = {}): Promise<FrameReader> {
  const native = options.engine === "zxing-wasm" ? null : await nativeDetector();
  const decode = native ? await nativeDecode(native) : await wasmDecode();
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true, alpha: false });
  if (!context) throw new Error("No 2D canvas for reading frames");
  let scratch: ImageData | null = null;
  /** An opaque picture the size of `like` to sharpen into, reused from frame to frame. */
  const scratchLike = (like: ImageData) => {
    if (scratch?.width !== like.width || scratch.height !== like.height) {
      scratch = new ImageData(new Uint8ClampedArray(like.data.length).fill(255), like.width, like.height);
    }
    return scratch;
  };

  const attempt = async (image: ImageData, pass: Pass) => {
    try {
      return await decode(image, pass);
    } catch {
      // A frame the engine could not read (spec §8: decode errors are ignored).
      return null;
    }
  };

  return {
    engine: native ? "native" : "zxing-wasm",
    async read(source, region) {
      const { width, height } = sourceSize(source);
      if (!width || !height) return null;
      const x = Math.max(0, Math.floor(region.x));
      const y = Math.max(0, Math.floor(region.y));
      const w = Math.min(width - x, Math.ceil(region.width));
      const h = Math.min(height - y, Math.ceil(region.height));
      if (w <= 0 || h <= 0) return null;
      /** The box scaled by `factor`, as pixels. */
      const grab = (factor: number) => {
        canvas.width = Math.max(1, Math.round(w * factor));
        canvas.height = Math.max(1, Math.round(h * factor));
        context.drawImage(source, x, y, w, h, 0, 0, canvas.width, canvas.height);
        return context.getImageData(0, 0, canvas.width, canvas.height);
      };

      const factor = Math.min(1, MAX_SIDE / Math.max(w, h));
      const full = grab(factor);
      const plain = await attempt(full, QUICK);
      if (plain) return plain;

      const half = Math.min(w, h) * factor * 0.5 >= MIN_SIDE ? grab(factor * 0.5) : null;
      if (half) {
        const denoised = await attempt(half, THOROUGH);
        if (denoised && (await attempt(grab(factor * HALF_CHECK_SCALE), THOROUGH)) === denoised) return denoised;
      }

      const blurred = Math.max(w, h) * factor > SHARPEN_FULL_UP_TO && half ? half : full;
      const sharpened = await attempt(sharpenRows(blurred, scratchLike(blurred), SHARPEN_AMOUNT), SHARPENED);
      if (!sharpened) return null;
      const check = await attempt(sharpenRows(blurred, scratchLike(blurred), SHARPEN_CHECK_AMOUNT), SHARPENED);
      return check === sharpened ? sharpened : null;
    },
  };
}
