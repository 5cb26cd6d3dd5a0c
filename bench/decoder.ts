/**
 * The shopper scanner's decoder (apps/web/src/shopper/scanner/decoder.ts)
 * in Chromium on the scanner testing recipe's six frame kinds, beside
 * ZXing's JavaScript port: read rate and milliseconds per frame. Frames are
 * made in code (apps/web/e2e/support/barcode-frames.ts), a different
 * EAN-13 in each; the decoder runs in the decoder lab page
 * (apps/web/e2e/support/decoder-lab). Returns its section of bench/results.md.
 */
import { type Browser, chromium, type Page } from "@playwright/test";
import {
  type BarcodeSymbol,
  cameraFrame,
  encodeEan13,
  FRAME_HEIGHT,
  FRAME_KINDS,
  FRAME_WIDTH,
  LOOKS,
  seeded,
} from "../apps/web/e2e/support/barcode-frames.ts";
import {
  type DecoderLab,
  LAB_GLOBAL,
  type LabEngine,
  type Measured,
} from "../apps/web/e2e/support/decoder-lab/protocol.ts";
import { type DecoderLabServer, startDecoderLab } from "../apps/web/e2e/support/decoder-lab.ts";
import { type Case, type CaseFigures, decoderReport } from "./decoder-report.ts";
import { loadAverage, setting } from "./lib.ts";

export const decoderTimeLimit = 600;
const frameCount = setting("BENCH_DECODER_FRAMES", 30);
/** Frames each code stays in view (a phone held still for 0.3 s at 10 frames a second). */
const HOLD = 3;
/** The launch arguments of apps/web/e2e/playwright.config.ts (this machine's Chromium needs them). */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ENGINES: LabEngine[] = ["ours", "ours-wasm", "zxing-js", "detector-frame"];
/** A frame with a label but no code on it: what the scanner sees most of the time, and where a miss costs most. */
const NO_CODE = "no code";
const BLANK: BarcodeSymbol = { symbology: "ean13", text: "", modules: "0".repeat(95), quietLeft: 11, quietRight: 7 };

/** Each frame's code: Swedish-prefixed EAN-13s (730–739), each held for HOLD frames, the same in every run. */
function codes(count: number, seed: number): BarcodeSymbol[] {
  const random = seeded(seed);
  const distinct = Array.from({ length: Math.ceil(count / HOLD) }, () => {
    const digits = Array.from({ length: 10 }, () => Math.floor(random() * 10)).join("");
    return encodeEan13(`73${digits}`);
  });
  return Array.from({ length: count }, (_, i) => distinct[Math.floor(i / HOLD)]!);
}

const VGA = { width: FRAME_WIDTH, height: FRAME_HEIGHT };
const HD = { width: 1280, height: 720 };
const FULL_HD = { width: 1920, height: 1080 };

/**
 * The recipe's six kinds at 640×480 (the budget), then where the blur limit
 * lies, the scanner's usual camera size, and frames with no code at all.
 * At a larger frame size the same code (and the same scan box share) has
 * proportionally more pixels per module.
 */
export const CASES: Case[] = [
  ...FRAME_KINDS.map((kind) => ({ name: kind, look: LOOKS[kind], size: VGA, budget: true, code: true })),
  { name: "blurred σ 2", look: { ...LOOKS.blurred, blur: 2 }, size: VGA, budget: false, code: true },
  {
    name: "blurred σ 2.5, 1280×720",
    look: { ...LOOKS.blurred, module: LOOKS.blurred.module * 1.5 },
    size: HD,
    budget: false,
    code: true,
  },
  {
    name: "clean, 1920×1080",
    look: { ...LOOKS.clean, module: LOOKS.clean.module * 2.25 },
    size: FULL_HD,
    budget: true,
    code: true,
  },
  { name: NO_CODE, look: LOOKS.clean, size: VGA, budget: true, code: false },
  { name: `${NO_CODE}, 1920×1080`, look: { ...LOOKS.clean, module: 6.3 }, size: FULL_HD, budget: true, code: false },
];

function frames(item: Case, symbols: BarcodeSymbol[]): Uint8Array {
  const size = item.size.width * item.size.height;
  const out = new Uint8Array(size * symbols.length);
  for (const [index, symbol] of symbols.entries()) {
    out.set(cameraFrame(symbol, item.look, index, item.size).data, index * size);
  }
  return out;
}

async function measure(page: Page, item: Case, engine: LabEngine): Promise<Measured> {
  return page.evaluate(
    ([global, name, engine, size]) =>
      (globalThis as unknown as Record<string, DecoderLab>)[global]!.measure(name, engine, size),
    [LAB_GLOBAL, item.name, engine, item.size] as const,
  );
}

export async function decoderBench(): Promise<string> {
  let lab: DecoderLabServer | undefined;
  let browser: Browser | undefined;
  const startLoad = loadAverage();
  try {
    lab = await startDecoderLab();
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    });
    const page = await browser.newPage();
    await page.goto(lab.url);
    await page.waitForFunction((global) => global in globalThis, LAB_GLOBAL);
    const figures: CaseFigures[] = [];
    const only = process.env.BENCH_DECODER_CASES?.split("/");
    for (const [k, item] of CASES.entries()) {
      if (only && !only.includes(item.name)) continue;
      const symbols = item.code ? codes(frameCount, 1000 + k) : Array(frameCount).fill(BLANK);
      lab.frames.set(item.name, frames(item, symbols));
      const results: CaseFigures["results"] = [];
      for (const engine of ENGINES) {
        const measured = await measure(page, item, engine);
        const expected = symbols.map((s) => (item.code ? s.text : null));
        const right = (text: string | null, i: number) => text !== null && text === expected[i];
        results.push({
          engine,
          resolved: measured.engine,
          read: measured.reads.filter(right).length,
          codesRead: new Set(measured.reads.flatMap((text, i) => (right(text, i) ? [Math.floor(i / HOLD)] : []))).size,
          wrong: measured.reads.filter((text, i) => text !== null && text !== expected[i]).length,
          ms: measured.ms,
        });
      }
      lab.frames.delete(item.name);
      figures.push({ item, frames: frameCount, codes: Math.ceil(frameCount / HOLD), hold: HOLD, results });
    }
    return decoderReport({ figures, startLoad, endLoad: loadAverage(), chromium: browser.version() });
  } catch (err) {
    return `## Decoder\n\nNot measured: ${(err as Error).message}\n`;
  } finally {
    await browser?.close();
    await lab?.close();
  }
}

// `node bench/decoder.ts`: this section alone, printed, results.md untouched.
if (import.meta.filename === process.argv[1]) console.log(await decoderBench());
