/**
 * The barcode renderer of the scanner tests and the decoder bench: bar
 * patterns and check digits against the symbologies' published tables, a
 * round trip through ZXing's JavaScript port, and the files it writes.
 * Run by vitest (not Playwright: the name does not end in .test.ts or .spec.ts).
 */
import { crc32, inflateSync } from "node:zlib";
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from "@zxing/library";
import { describe, expect, it } from "vitest";
import {
  type BarcodeSymbol,
  CODE128_WIDTHS,
  cameraFrame,
  encode,
  encodeCode128,
  encodeEan8,
  encodeEan13,
  encodeUpcA,
  FRAME_KINDS,
  type Gray,
  grayPng,
  y4mVideo,
} from "./barcode-frames.ts";

/** Splits a module string into groups of the given sizes, to compare with a table row by row. */
function groups(modules: string, sizes: number[]): string[] {
  let at = 0;
  return sizes.map((size) => {
    const part = modules.slice(at, at + size);
    at += size;
    return part;
  });
}

function read(frame: Gray): { text: string; format: string } | null {
  const reader = new MultiFormatReader();
  const formats = [BarcodeFormat.EAN_13, BarcodeFormat.EAN_8, BarcodeFormat.UPC_A, BarcodeFormat.CODE_128];
  reader.setHints(new Map<DecodeHintType, unknown>([[DecodeHintType.POSSIBLE_FORMATS, formats]]));
  const luminance = new RGBLuminanceSource(new Uint8ClampedArray(frame.data), frame.width, frame.height);
  try {
    const result = reader.decodeWithState(new BinaryBitmap(new HybridBinarizer(luminance)));
    return { text: result.getText(), format: BarcodeFormat[result.getBarcodeFormat()]! };
  } catch {
    return null;
  }
}

describe("check digits", () => {
  it("adds the GTIN check digit to a body and accepts a full code only when it checks", () => {
    expect(encodeEan13("400638133393").text).toBe("4006381333931");
    expect(encodeEan13("4006381333931").text).toBe("4006381333931");
    expect(() => encodeEan13("4006381333932")).toThrow(/check digit should be 1/);
    expect(encodeEan8("7351353").text).toBe("73513537");
    expect(() => encodeEan8("73513530")).toThrow(/check digit should be 7/);
    expect(encodeUpcA("03600029145").text).toBe("036000291452");
    expect(() => encodeUpcA("036000291453")).toThrow(/check digit/);
  });

  it("refuses lengths and characters the symbology cannot carry", () => {
    expect(() => encodeEan13("12345678901")).toThrow(/12 or 13 digits/);
    expect(() => encodeEan13("40063813339a")).toThrow(/digits only/);
    expect(() => encodeEan8("123456789")).toThrow(/7 or 8 digits/);
    expect(() => encodeCode128("Ål")).toThrow(/printable ASCII/);
  });
});

describe("bar patterns", () => {
  it("draws EAN-13 5901234123457 as the standard tables give it (first digit 5: parity LGGLLG)", () => {
    const { modules, quietLeft, quietRight } = encodeEan13("590123412345");
    expect(modules).toHaveLength(95);
    expect(groups(modules, [3, 7, 7, 7, 7, 7, 7, 5, 7, 7, 7, 7, 7, 7, 3])).toEqual([
      "101",
      "0001011", // 9, set A (L)
      "0100111", // 0, set B (G)
      "0110011", // 1, G
      "0010011", // 2, L
      "0111101", // 3, L
      "0011101", // 4, G
      "01010",
      "1100110", // 1, set C (R)
      "1101100", // 2
      "1000010", // 3
      "1011100", // 4
      "1001110", // 5
      "1000100", // 7, the check digit
      "101",
    ]);
    expect([quietLeft, quietRight]).toEqual([11, 7]);
  });

  it("draws EAN-8 96385074 with set A on the left and set C on the right", () => {
    const { modules } = encodeEan8("9638507");
    expect(groups(modules, [3, 7, 7, 7, 7, 5, 7, 7, 7, 7, 3])).toEqual([
      "101",
      "0001011", // 9
      "0101111", // 6
      "0111101", // 3
      "0110111", // 8
      "01010",
      "1001110", // 5
      "1110010", // 0
      "1000100", // 7
      "1011100", // 4, the check digit
      "101",
    ]);
  });

  it("draws UPC-A as the EAN-13 with a leading zero: all six left digits in set A", () => {
    const upc = encodeUpcA("036000291452");
    expect(upc.modules).toBe(encodeEan13("0036000291452").modules);
    expect(groups(upc.modules, [3, 7])[1]).toBe("0001101"); // 0 in set A
  });

  it("has 107 distinct Code 128 symbols of 11 modules (the stop 13), an even number of them dark", () => {
    expect(new Set(CODE128_WIDTHS).size).toBe(107);
    for (const [value, widths] of CODE128_WIDTHS.entries()) {
      const digits = [...widths].map(Number);
      expect(
        digits.reduce((a, b) => a + b),
        `symbol ${value}`,
      ).toBe(value === 106 ? 13 : 11);
      const bars = digits.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b);
      expect(bars % 2, `symbol ${value}`).toBe(0);
    }
  });

  it("encodes Code 128 in set B with its weighted check symbol, and even digit strings in set C", () => {
    const symbol = (modules: string, index: number) => modules.slice(index * 11, index * 11 + 11);
    const widthsOf = (value: number) =>
      [...CODE128_WIDTHS[value]!].map((w, i) => (i % 2 === 0 ? "1" : "0").repeat(Number(w))).join("");
    // "AB": start B (104), A = 33, B = 34; check (104 + 33 + 2 × 34) mod 103 = 102.
    const ab = encodeCode128("AB").modules;
    expect([0, 1, 2, 3].map((i) => symbol(ab, i))).toEqual([104, 33, 34, 102].map(widthsOf));
    expect(ab.slice(44)).toBe(widthsOf(106));
    // "123456": start C (105), 12, 34, 56; check (105 + 12 + 2 × 34 + 3 × 56) mod 103 = 44.
    const digits = encodeCode128("123456").modules;
    expect([0, 1, 2, 3, 4].map((i) => symbol(digits, i))).toEqual([105, 12, 34, 56, 44].map(widthsOf));
    // An odd number of digits stays in set B.
    expect(symbol(encodeCode128("12345").modules, 0)).toBe(widthsOf(104));
  });
});

describe("frames", () => {
  const codes: [Parameters<typeof encode>[0], string, string, string][] = [
    ["ean13", "731086500470", "7310865004703", "EAN_13"],
    ["ean8", "7310865", "73108658", "EAN_8"],
    ["upca", "03600029145", "036000291452", "UPC_A"],
    ["code128", "Glide-42", "Glide-42", "CODE_128"],
    ["code128", "20123456", "20123456", "CODE_128"],
  ];
  it.each(codes)("a clean frame of %s %s reads back as %s", (symbology, input, text, format) => {
    expect(read(cameraFrame(encode(symbology, input), "clean"))).toEqual({ text, format });
  });

  it("reads back no code from a label without bars, and not the code of another frame", () => {
    const blank: BarcodeSymbol = { ...encodeEan13("731086500470"), modules: "0".repeat(95) };
    expect(read(cameraFrame(blank, "clean"))).toBeNull();
    expect(read(cameraFrame(encodeEan13("735000000000"), "clean"))?.text).toBe("7350000000009");
  });

  it("makes the six kinds of the recipe, each as it says", () => {
    const symbol = encodeEan13("731086500470");
    const frames = Object.fromEntries(FRAME_KINDS.map((kind) => [kind, cameraFrame(symbol, kind, 0)]));
    const middleRow = (frame: Gray) => frame.data.subarray(240 * 640, 241 * 640);
    const darkSpan = (frame: Gray) => {
      const row = [...middleRow(frame)];
      const first = row.findIndex((v) => v < 100);
      const last = row.length - 1 - [...row].reverse().findIndex((v) => v < 100);
      return last - first;
    };
    for (const frame of Object.values(frames)) expect([frame.width, frame.height]).toEqual([640, 480]);
    // Bars about 95 × 2.8 px wide on a clean frame, about 160 px with quiet zones on a small one.
    expect(darkSpan(frames.clean!)).toBeGreaterThan(255);
    expect(darkSpan(frames.clean!)).toBeLessThan(275);
    expect(darkSpan(frames.small!)).toBeGreaterThan(125);
    expect(darkSpan(frames.small!)).toBeLessThan(145);
    // Dim: nothing brighter than the paper's 77; blurred: no sharp edge left between the bars.
    const brightest = (frame: Gray) => frame.data.reduce((a, b) => Math.max(a, b), 0);
    expect(brightest(frames.dim!)).toBeLessThanOrEqual(78);
    expect(brightest(frames.clean!)).toBeGreaterThan(200);
    const steepest = (frame: Gray) =>
      middleRow(frame).reduce((a, v, i, row) => Math.max(a, Math.abs(v - (row[i - 1] ?? v))), 0);
    expect(steepest(frames.clean!)).toBeGreaterThan(150);
    expect(steepest(frames.blurred!)).toBeLessThan(50);
    // Noise: new in every frame, about σ 35 on the flat background.
    const noisy = (index: number) => cameraFrame(symbol, "noisy", index).data.subarray(0, 640 * 40);
    const a = noisy(0);
    const b = noisy(1);
    expect(a).not.toEqual(b);
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    const sd = Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / a.length);
    expect(sd).toBeGreaterThan(30);
    expect(sd).toBeLessThan(40);
    // Tilted: the middle row crosses the bars at a slant, so it is longer than on the clean frame.
    expect(darkSpan(frames.tilted!)).toBeGreaterThan(darkSpan(frames.clean!) + 10);
    // The same index gives the same frame in every run.
    expect(cameraFrame(symbol, "noisy", 3).data).toEqual(cameraFrame(symbol, "noisy", 3).data);
  });
});

describe("files", () => {
  const picture: Gray = { width: 4, height: 2, data: Uint8Array.from([0, 64, 128, 255, 255, 128, 64, 0]) };

  it("writes a 4:2:0 Y4M video Chromium can play: header, FRAME markers, video-range luma, neutral chroma", () => {
    const video = y4mVideo([picture, picture], 10);
    const header = "YUV4MPEG2 W4 H2 F10:1 Ip A1:1 C420jpeg\n";
    expect(new TextDecoder().decode(video.subarray(0, header.length))).toBe(header);
    const frameBytes = "FRAME\n".length + 8 + 2 * 2;
    expect(video.length).toBe(header.length + 2 * frameBytes);
    const frame = video.subarray(header.length + frameBytes);
    expect(new TextDecoder().decode(frame.subarray(0, 6))).toBe("FRAME\n");
    expect([...frame.subarray(6, 14)]).toEqual([16, 71, 126, 235, 235, 126, 71, 16]);
    expect([...frame.subarray(14)]).toEqual([128, 128, 128, 128]);
    expect(() => y4mVideo([{ width: 3, height: 2, data: new Uint8Array(6) }])).toThrow(/even/);
  });

  it("writes a PNG whose chunks check and whose pixels are the picture's", () => {
    const png = grayPng(picture);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer, png.byteOffset);
    const chunks: Record<string, Uint8Array> = {};
    for (let at = 8; at < png.length; ) {
      const length = view.getUint32(at);
      const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
      expect(view.getUint32(at + 8 + length), `${type} CRC`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
      chunks[type] = png.subarray(at + 8, at + 8 + length);
      at += 12 + length;
    }
    expect(Object.keys(chunks)).toEqual(["IHDR", "IDAT", "IEND"]);
    const ihdr = new DataView(chunks.IHDR!.buffer, chunks.IHDR!.byteOffset);
    expect([ihdr.getUint32(0), ihdr.getUint32(4), chunks.IHDR![8], chunks.IHDR![9]]).toEqual([4, 2, 8, 0]);
    expect([...inflateSync(chunks.IDAT!)]).toEqual([0, 0, 64, 128, 255, 0, 255, 128, 64, 0]);
  });

  it("splits a PNG of more than 64 KiB of pixels into several stored blocks", () => {
    const large: Gray = { width: 640, height: 480, data: new Uint8Array(640 * 480).map((_, i) => i % 251) };
    const png = grayPng(large);
    const idat = png.subarray(8 + 25 + 8, png.length - 12 - 4);
    const raw = inflateSync(idat);
    expect(raw.length).toBe(641 * 480);
    expect(raw[641 * 100 + 1 + 5]).toBe((640 * 100 + 5) % 251);
  });
});
