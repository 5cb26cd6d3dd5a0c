import { describe, expect, it } from "vitest";
import {
  displayGtin,
  expandUpcE,
  gtinCheckDigit,
  isVariableMeasure,
  pantVoucherOf,
  parseBarcode,
  parseVariableMeasure,
} from "./barcodes.ts";

describe("GTIN check digits", () => {
  it.each([
    ["400638133393", 1], // EAN-13 4006381333931
    ["9638507", 4], // EAN-8 96385074
    ["03600029145", 2], // UPC-A 036000291452
    ["1001234567890", 2], // GTIN-14 10012345678902
  ])("%s → %i", (body, digit) => expect(gtinCheckDigit(body)).toBe(digit));
});

describe("parseBarcode", () => {
  it("reads each kind and rejects a wrong check digit", () => {
    expect(parseBarcode("4006381333931")).toEqual({ kind: "EAN-13", raw: "4006381333931", gtin14: "04006381333931" });
    expect(parseBarcode("4006381333932")).toBeNull();
    expect(parseBarcode("96385074")).toEqual({ kind: "EAN-8", raw: "96385074", gtin14: "00000096385074" });
    expect(parseBarcode("036000291452")?.kind).toBe("UPC-A");
    expect(parseBarcode("10012345678902")?.kind).toBe("GTIN-14");
    expect(parseBarcode("10012345678903")).toBeNull();
  });

  it("gives a UPC-A and its EAN-13 form the same GTIN", () => {
    expect(parseBarcode("036000291452")?.gtin14).toBe(parseBarcode("0036000291452")?.gtin14);
  });

  it("expands UPC-E by each zero-suppression rule", () => {
    // Last data digit 0–2, 3, 4 and 5–9.
    expect(expandUpcE("01234505")).toBe("012000003455");
    // 2 is the last digit of the first rule: it stays in place, after the manufacturer's first two digits.
    expect(expandUpcE("01234523")).toBe("012200003453");
    expect(expandUpcE("04252614")).toBe("042100005264");
    expect(expandUpcE("01234531")).toBe("012300000451");
    expect(expandUpcE("01234558")).toBe("012345000058");
    expect(expandUpcE("01234543")).toBe("012340000053");
    expect(parseBarcode("04252614")).toMatchObject({ kind: "UPC-E", gtin14: "00042100005264" });
    expect(parseBarcode("04252614")?.gtin14).toBe(parseBarcode("042100005264")?.gtin14);
    expect(expandUpcE("04252615")).toBeNull();
    // Only number systems 0 and 1, and exactly eight digits, even where the digits would check out.
    expect(expandUpcE("21234509")).toBeNull();
    expect(expandUpcE("012345055")).toBeNull();
  });

  it("ignores spaces and hyphens, and rejects letters and odd lengths", () => {
    expect(parseBarcode("400 6381 33393 1")?.raw).toBe("4006381333931");
    expect(parseBarcode("40063813339E1")).toBeNull();
    expect(parseBarcode("1234567")).toBeNull();
    expect(parseBarcode("")).toBeNull();
  });

  it("shows the usual short form", () => {
    expect(displayGtin("04006381333931")).toBe("4006381333931");
    expect(displayGtin("00000096385074")).toBe("96385074");
    expect(displayGtin("10012345678902")).toBe("10012345678902");
  });
});

describe("Swedish variable-measure codes", () => {
  const withCheck = (body: string) => `${body}${gtinCheckDigit(body)}`;

  it("reads a price label with two decimals (prefix 20)", () => {
    const code = withCheck("200123401234");
    expect(parseVariableMeasure(code)).toEqual({
      itemCode: withCheck("200123400000"),
      measure: { kind: "price", priceOre: 1234 },
    });
  });

  it("reads price labels with one and no decimals (21, 22)", () => {
    expect(parseVariableMeasure(withCheck("210123401234"))?.measure).toEqual({ kind: "price", priceOre: 12340 });
    expect(parseVariableMeasure(withCheck("220123401234"))?.measure).toEqual({ kind: "price", priceOre: 123400 });
  });

  it("reads weight labels with three, two and one decimals of a kilogram (23, 24, 25)", () => {
    expect(parseVariableMeasure(withCheck("230123401234"))?.measure).toEqual({ kind: "weight", grams: 1234 });
    expect(parseVariableMeasure(withCheck("240123401234"))?.measure).toEqual({ kind: "weight", grams: 12340 });
    expect(parseVariableMeasure(withCheck("250123401234"))?.measure).toEqual({ kind: "weight", grams: 123400 });
  });

  it("ignores spaces and hyphens in a label, and takes 13 digits only", () => {
    const code = withCheck("230123401234");
    expect(parseVariableMeasure(`${code.slice(0, 7)} ${code.slice(7, 12)}-${code[12]}`)).toEqual(
      parseVariableMeasure(code),
    );
    // 14 digits with a valid GTIN-14 check digit are a GTIN-14, not a label.
    expect(parseVariableMeasure("20012340123459")).toBeNull();
    expect(parseBarcode("20012340123459")?.kind).toBe("GTIN-14");
  });

  it("finds the same item whatever the value", () => {
    const a = parseVariableMeasure(withCheck("230123400456"))!;
    const b = parseVariableMeasure(withCheck("230123409999"))!;
    expect(a.itemCode).toBe(b.itemCode);
  });

  it("rejects ordinary codes, a wrong check digit and prefixes without a value", () => {
    expect(parseVariableMeasure("4006381333931")).toBeNull();
    const good = withCheck("230123401234");
    const bad = `${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`;
    expect(parseVariableMeasure(bad)).toBeNull();
    expect(parseVariableMeasure(withCheck("290123401234"))).toBeNull();
  });

  it("reads 25 as the last prefix with a value, and 26 as an ordinary code", () => {
    expect(isVariableMeasure(withCheck("250123401234"))).toBe(true);
    expect(parseVariableMeasure(withCheck("260123401234"))).toBeNull();
    expect(isVariableMeasure(withCheck("260123401234"))).toBe(false);
    expect(parseBarcode(withCheck("260123401234"))?.kind).toBe("EAN-13");
  });
});

describe("pant machine vouchers", () => {
  const voucher = (body12: string) => body12 + gtinCheckDigit(body12);

  it("reads 980, a serial and the value in whole kronor", () => {
    expect(pantVoucherOf(voucher("980123450024"))).toEqual({ code: voucher("980123450024"), amountOre: 2400 });
    expect(pantVoucherOf(voucher("980000019999"))).toEqual({ code: voucher("980000019999"), amountOre: 999_900 });
    expect(pantVoucherOf(voucher("980000000001"))?.amountOre).toBe(100);
  });

  it("takes spaces and dashes as a hand-typed code has them", () => {
    const code = voucher("980123450024");
    expect(pantVoucherOf(`${code.slice(0, 3)} ${code.slice(3, 8)}-${code.slice(8)}`)?.code).toBe(code);
  });

  it("is no voucher: another prefix, a wrong check digit, a value of 0, or the wrong length", () => {
    const code = voucher("980123450024");
    expect(pantVoucherOf(voucher("981123450024"))).toBeNull();
    expect(pantVoucherOf(voucher("730123450024"))).toBeNull();
    expect(pantVoucherOf(code.slice(0, 12) + ((Number(code[12]) + 1) % 10))).toBeNull();
    expect(pantVoucherOf(voucher("980123450000"))).toBeNull();
    expect(pantVoucherOf(code.slice(0, 12))).toBeNull();
    expect(pantVoucherOf(`${code}0`)).toBeNull();
  });
});
