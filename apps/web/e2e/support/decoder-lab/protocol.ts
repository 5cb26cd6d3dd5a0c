/** What the decoder lab page (lab.ts) offers the Node side that drives it: the bench and the camera spec. */

/**
 * Who reads: the scanner's reader as it starts in this browser (`ours`),
 * the same forced to ZXing WebAssembly (`ours-wasm`), ZXing's JavaScript
 * port on the whole frame (`zxing-js`), and the BarcodeDetector ponyfill
 * once over the whole frame, as the scanner testing recipe measured it
 * (`detector-frame`).
 */
export type LabEngine = "ours" | "ours-wasm" | "zxing-js" | "detector-frame";

export interface Measured {
  /** Which engine `ours` turned out to be in this browser. */
  engine: string;
  /** Per frame: the text read, or null. */
  reads: (string | null)[];
  /** Per frame: milliseconds from the frame being there to the answer. */
  ms: number[];
}

export interface CameraRead {
  code: string | null;
  /** The camera's frame size as the page got it. */
  width: number;
  height: number;
  engine: string;
  /** Frames read before the code was found (or the time ran out). */
  frames: number;
}

export interface DecoderLab {
  /** Frames `/frames/<name>.gray` (8-bit gray, all of `size`, back to back) read by `engine`. */
  measure(name: string, engine: LabEngine, size: { width: number; height: number }): Promise<Measured>;
  /** The camera as the scanner opens it, read ten times a second until a code is read or `timeoutMs` passes. */
  camera(options: { timeoutMs: number; region: "scan-box" | "top-left-corner" }): Promise<CameraRead>;
}

/** Where the lab page puts itself, for page.evaluate. */
export const LAB_GLOBAL = "decoderLab";
