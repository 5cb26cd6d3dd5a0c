import { describe, expect, it } from "vitest";
import { checkTypedBarcode } from "./typed-barcode.ts";

describe("a barcode typed on manual scan", () => {
  it("takes a valid EAN-13, EAN-8, UPC-A and GTIN-14, with the printed spaces dropped", () => {
    expect(checkTypedBarcode("7310865004703")).toEqual({ ok: true, code: "7310865004703" });
    expect(checkTypedBarcode("7 310865 004703")).toEqual({ ok: true, code: "7310865004703" });
    expect(checkTypedBarcode("96385074")).toEqual({ ok: true, code: "96385074" });
    expect(checkTypedBarcode("036000291452")).toEqual({ ok: true, code: "036000291452" });
    expect(checkTypedBarcode("10012345678902")).toEqual({ ok: true, code: "10012345678902" });
  });

  it("refuses a wrong check digit, one off either way", () => {
    expect(checkTypedBarcode("7310865004704")).toEqual({ ok: false, error: "check" });
    expect(checkTypedBarcode("7310865004702")).toEqual({ ok: false, error: "check" });
    expect(checkTypedBarcode("96385075")).toEqual({ ok: false, error: "check" });
    expect(checkTypedBarcode("036000291453")).toEqual({ ok: false, error: "check" });
    expect(checkTypedBarcode("10012345678903")).toEqual({ ok: false, error: "check" });
  });

  it("refuses anything but digits, and says so before the length", () => {
    expect(checkTypedBarcode("73108650047O3")).toEqual({ ok: false, error: "digits" });
    expect(checkTypedBarcode("7310-865004703")).toEqual({ ok: false, error: "digits" });
    expect(checkTypedBarcode("abc")).toEqual({ ok: false, error: "digits" });
  });

  it("refuses a length no retail code has: 7, 9, 11 and 15 digits", () => {
    for (const code of ["7310865", "731086500", "73108650047", "731086500470312"]) {
      expect(checkTypedBarcode(code)).toEqual({ ok: false, error: "length" });
    }
  });

  it("asks for the digits when nothing was typed", () => {
    expect(checkTypedBarcode("")).toEqual({ ok: false, error: "empty" });
    expect(checkTypedBarcode("   ")).toEqual({ ok: false, error: "empty" });
  });
});
