/**
 * Camera frames of a barcode, made in code: a printed label on a grey
 * background as a 640×480 phone camera sees it, in the six kinds of the
 * scanner testing recipe (docs: scanner-testing.md), and the files to show
 * them with: a Y4M video Chromium plays as its camera, a PNG to look at.
 * Pure functions (no Node or DOM): the same frames in Node, in a test and
 * in the bench.
 */
import type { BarcodeSymbol } from "./barcode-symbols.ts";

export * from "./barcode-symbols.ts";

/** An 8-bit grayscale picture, row by row. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

export const FRAME_WIDTH = 640;
export const FRAME_HEIGHT = 480;

/** Where the code sits in the frame and how large it looks. */
export interface Placement {
  /** The centre of the bars, in frame pixels. */
  x: number;
  y: number;
  /** One module's width in frame pixels. */
  module: number;
  /** Bar height as a share of the bars' width (a printed EAN-13 is about 0.6). */
  heightShare: number;
  /** Clockwise, in degrees. */
  angle: number;
}

/** Luma of the ink, the label paper and the shelf around it (a label is not pure black on white). */
const INK = 25;
const PAPER = 235;
const BACKGROUND = 150;
/** Paper around the quiet zones, in modules: the label's edge is not the code's. */
const LABEL_MARGIN = 4;
/** Samples per pixel side: each pixel is the mean of SUB × SUB points, as a sensor integrates light. */
const SUB = 4;

/** The code drawn on its label in a frame: luma 0–255 as floats, for the camera effects to work on. */
export function drawScene(symbol: BarcodeSymbol, at: Placement, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height).fill(BACKGROUND);
  const modules = symbol.modules.length;
  const barsWidth = modules * at.module;
  const barHeight = barsWidth * at.heightShare;
  // The label in code coordinates (u along the bars' row from the first bar, v down from the bars' middle).
  const labelLeft = -(symbol.quietLeft + LABEL_MARGIN) * at.module;
  const labelRight = barsWidth + (symbol.quietRight + LABEL_MARGIN) * at.module;
  const labelHalf = barHeight / 2 + LABEL_MARGIN * 2 * at.module;
  const cos = Math.cos((at.angle * Math.PI) / 180);
  const sin = Math.sin((at.angle * Math.PI) / 180);
  const reach = Math.hypot(Math.max(-labelLeft, labelRight) + barsWidth / 2, labelHalf) + 2;
  const x0 = Math.max(0, Math.floor(at.x - reach));
  const x1 = Math.min(width, Math.ceil(at.x + reach));
  const y0 = Math.max(0, Math.floor(at.y - reach));
  const y1 = Math.min(height, Math.ceil(at.y + reach));
  const dark = Uint8Array.from(symbol.modules, (c) => (c === "1" ? 1 : 0));
  for (let py = y0; py < y1; py++) {
    for (let px = x0; px < x1; px++) {
      let sum = 0;
      for (let sy = 0; sy < SUB; sy++) {
        for (let sx = 0; sx < SUB; sx++) {
          const dx = px + (sx + 0.5) / SUB - at.x;
          const dy = py + (sy + 0.5) / SUB - at.y;
          const u = dx * cos + dy * sin + barsWidth / 2;
          const v = -dx * sin + dy * cos;
          if (u < labelLeft || u >= labelRight || Math.abs(v) > labelHalf) {
            sum += BACKGROUND;
            continue;
          }
          const index = Math.floor(u / at.module);
          sum += index >= 0 && index < modules && dark[index] && Math.abs(v) <= barHeight / 2 ? INK : PAPER;
        }
      }
      out[py * width + px] = sum / (SUB * SUB);
    }
  }
  return out;
}

/** Gaussian blur in place (separable, edges repeated): an out-of-focus lens. */
export function gaussianBlur(pixels: Float32Array, width: number, height: number, sigma: number): void {
  const radius = Math.ceil(sigma * 3);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((a, b) => a + b, 0);
  for (let i = 0; i < kernel.length; i++) kernel[i]! /= total;
  const line = new Float32Array(Math.max(width, height));
  const pass = (count: number, length: number, index: (line: number, at: number) => number) => {
    for (let l = 0; l < count; l++) {
      for (let i = 0; i < length; i++) {
        let acc = 0;
        for (let k = -radius; k <= radius; k++) {
          acc += kernel[k + radius]! * pixels[index(l, Math.min(length - 1, Math.max(0, i + k)))]!;
        }
        line[i] = acc;
      }
      for (let i = 0; i < length; i++) pixels[index(l, i)] = line[i]!;
    }
  };
  pass(height, width, (row, x) => row * width + x);
  pass(width, height, (column, y) => y * width + column);
}

/** A small seeded generator (mulberry32), so every frame is the same in every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FRAME_KINDS = ["clean", "blurred", "tilted", "dim", "small", "noisy"] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];

/** How a frame kind looks; LOOKS has the recipe's six. */
export interface Look {
  /** Module width in pixels: 2.8 puts an EAN-13 with its quiet zones inside the shop page's scan box. */
  module: number;
  angle: number;
  /** Gaussian sigma in pixels; 0 is sharp. */
  blur: number;
  /** Dim shop corner: luma scaled to 35 % around mid-grey and lowered by 35 % of full scale. */
  dim: boolean;
  /** Standard deviation of the sensor noise added to each pixel of each frame, in luma steps. */
  noise: number;
}

/** What each kind of the recipe means here (the recipe's ffmpeg filters, in code). */
export const LOOKS: Record<FrameKind, Look> = {
  clean: { module: 2.8, angle: 0, blur: 0, dim: false, noise: 0 },
  blurred: { module: 2.8, angle: 0, blur: 2.5, dim: false, noise: 0 },
  tilted: { module: 2.8, angle: 20, blur: 0, dim: false, noise: 0 },
  dim: { module: 2.8, angle: 0, blur: 0, dim: true, noise: 0 },
  // An EAN-13 about 160 px wide with its quiet zones (113 modules): a code far from the lens.
  small: { module: 160 / 113, angle: 0, blur: 0, dim: false, noise: 0 },
  // ffmpeg's noise=alls=60 is a Gaussian of about 60/√3 per pixel, new in every frame.
  noisy: { module: 2.8, angle: 0, blur: 0, dim: false, noise: 35 },
};

/**
 * Frame `index` of a hand-held camera looking at `symbol`: the code near
 * the frame's centre, moved by up to 4 px and turned by up to 2° from frame
 * to frame (seeded by `index`), with the kind's blur, light and noise.
 * 640×480 unless `size` says otherwise (the look's sizes are in pixels of
 * whatever frame it is).
 */
export function cameraFrame(
  symbol: BarcodeSymbol,
  kind: FrameKind | Look,
  index = 0,
  size = { width: FRAME_WIDTH, height: FRAME_HEIGHT },
): Gray {
  const look = typeof kind === "string" ? LOOKS[kind] : kind;
  const { width, height } = size;
  const random = seeded(0x9e3779b9 ^ (index * 7919));
  const shake = () => (random() * 2 - 1) * 4;
  const at: Placement = {
    x: width / 2 + shake(),
    y: height / 2 + shake(),
    module: look.module,
    heightShare: 0.6,
    angle: look.angle + (random() * 2 - 1) * 2,
  };
  const pixels = drawScene(symbol, at, width, height);
  if (look.blur > 0) gaussianBlur(pixels, width, height, look.blur);
  const data = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) {
    let v = pixels[i]!;
    if (look.dim) v = (v - 128) * 0.35 + 128 - 0.35 * 255;
    if (look.noise > 0) v += look.noise * gaussian(random);
    data[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return { width, height, data };
}

/** A standard normal draw (Box–Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A YUV 4:2:0 Y4M video of the frames, which Chromium plays in a loop as
 * its camera (--use-file-for-fake-video-capture). Luma is written in video
 * range (16–235), which is how Chromium reads it back; chroma is neutral.
 */
export function y4mVideo(frames: readonly Gray[], fps = 10): Uint8Array {
  const [first] = frames;
  if (!first || first.width % 2 || first.height % 2)
    throw new Error("Y4M: at least one frame of even width and height");
  const { width, height } = first;
  const header = new TextEncoder().encode(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const marker = new TextEncoder().encode("FRAME\n");
  const chroma = (width / 2) * (height / 2);
  const frameBytes = marker.length + width * height + 2 * chroma;
  const out = new Uint8Array(header.length + frames.length * frameBytes);
  out.set(header, 0);
  let at = header.length;
  for (const frame of frames) {
    if (frame.width !== width || frame.height !== height) throw new Error("Y4M: every frame the same size");
    out.set(marker, at);
    at += marker.length;
    for (let i = 0; i < frame.data.length; i++) out[at + i] = 16 + Math.round((frame.data[i]! * 219) / 255);
    at += frame.data.length;
    out.fill(128, at, at + 2 * chroma);
    at += 2 * chroma;
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A grayscale PNG of the picture (zlib "stored" blocks: large, but no compressor needed), to look at a frame. */
export function grayPng(picture: Gray): Uint8Array {
  const { width, height, data } = picture;
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const blocks = Math.max(1, Math.ceil(raw.length / 65535));
  const zlib = new Uint8Array(2 + blocks * 5 + raw.length + 4);
  const view = new DataView(zlib.buffer);
  zlib.set([0x78, 0x01]);
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const chunk = raw.subarray(b * 65535, Math.min(raw.length, (b + 1) * 65535));
    zlib[at] = b === blocks - 1 ? 1 : 0;
    view.setUint16(at + 1, chunk.length, true);
    view.setUint16(at + 3, ~chunk.length & 0xffff, true);
    zlib.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  let a = 1;
  let s = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    s = (s + a) % 65521;
  }
  view.setUint32(at, ((s << 16) | a) >>> 0);
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const chunks = [chunk("IHDR", ihdr), chunk("IDAT", zlib), chunk("IEND", new Uint8Array())];
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const out = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
  out.set(signature);
  let offset = 8;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

/** RGBA bytes of a grayscale picture, for ImageData or a canvas. */
export function grayToRgba(picture: Gray): Uint8ClampedArray {
  const out = new Uint8ClampedArray(picture.data.length * 4);
  for (let i = 0; i < picture.data.length; i++) {
    const v = picture.data[i]!;
    out[i * 4] = v;
    out[i * 4 + 1] = v;
    out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  }
  return out;
}
