/**
 * Retail barcodes: GTIN check digits, UPC-E expansion, normalisation to
 * GTIN-14, and Swedish variable-measure numbers (GS1 Sweden, prefix 20–29).
 * One module, so the product database, the scan lookup and the web forms
 * agree on what a barcode is.
 */

export type BarcodeKind = "EAN-13" | "EAN-8" | "UPC-A" | "UPC-E" | "GTIN-14";

/** The GTIN check digit over `body` (all digits but the check digit). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // From the right, weights 3, 1, 3, 1, ...
    const weight = (body.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(body[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

function hasValidCheckDigit(code: string): boolean {
  return Number(code[code.length - 1]) === gtinCheckDigit(code.slice(0, -1));
}

/**
 * UPC-E (8 digits: number system 0 or 1, six data digits, check digit) to
 * UPC-A by the zero-suppression rules; null if it is not a UPC-E code.
 */
export function expandUpcE(code: string): string | null {
  if (!/^[01]\d{7}$/.test(code)) return null;
  const ns = code[0]!;
  const d = code.slice(1, 7);
  const check = code[7]!;
  const last = d[5]!;
  let body: string;
  if (last <= "2") body = `${d.slice(0, 2)}${last}0000${d.slice(2, 5)}`;
  else if (last === "3") body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === "4") body = `${d.slice(0, 4)}00000${d[4]}`;
  else body = `${d.slice(0, 5)}0000${last}`;
  const upcA = `${ns}${body}${check}`;
  return hasValidCheckDigit(upcA) ? upcA : null;
}

export type ParsedBarcode = {
  kind: BarcodeKind;
  /** The code as scanned, digits only. */
  raw: string;
  /** The 14-digit GTIN every form of the same code shares. */
  gtin14: string;
};

/**
 * Reads a scanned or typed retail code. 8 digits are EAN-8, or UPC-E when
 * only that reading has a valid check digit. Returns null for anything that
 * is not a valid GTIN.
 */
export function parseBarcode(input: string): ParsedBarcode | null {
  const raw = input.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(raw)) return null;
  switch (raw.length) {
    case 8: {
      if (hasValidCheckDigit(raw)) return { kind: "EAN-8", raw, gtin14: raw.padStart(14, "0") };
      const upcA = expandUpcE(raw);
      return upcA ? { kind: "UPC-E", raw, gtin14: upcA.padStart(14, "0") } : null;
    }
    case 12:
      return hasValidCheckDigit(raw) ? { kind: "UPC-A", raw, gtin14: raw.padStart(14, "0") } : null;
    case 13:
      return hasValidCheckDigit(raw) ? { kind: "EAN-13", raw, gtin14: raw.padStart(14, "0") } : null;
    case 14:
      return hasValidCheckDigit(raw) ? { kind: "GTIN-14", raw, gtin14: raw } : null;
    default:
      return null;
  }
}

/** The shortest usual form of a GTIN-14: EAN-13 when it fits, else GTIN-14. EAN-8 stays EAN-8. */
export function displayGtin(gtin14: string): string {
  if (gtin14.startsWith("000000")) return gtin14.slice(6);
  return gtin14.startsWith("0") ? gtin14.slice(1) : gtin14;
}

export type VariableMeasure =
  | { kind: "price" /** Line price in öre. */; priceOre: number }
  | { kind: "weight" /** Weight in grams. */; grams: number };

export type VariableMeasureCode = {
  /** The item: the first 8 digits with the value zeroed, as a valid EAN-13 (value 0000). */
  itemCode: string;
  measure: VariableMeasure;
};

/**
 * Swedish variable-measure EAN-13 (GS1 Sweden): `2X` + 6 item digits + a
 * 4-digit value + check digit. X: 0–2 price with 2, 1, 0 decimals; 3–5
 * weight in kg with 3, 2, 1 decimals. Returns null for other codes
 * (including 26–29, which carry no value in this scheme).
 */
export function parseVariableMeasure(code: string): VariableMeasureCode | null {
  const raw = code.replace(/[\s-]/g, "");
  if (!/^2[0-5]\d{11}$/.test(raw) || !hasValidCheckDigit(raw)) return null;
  const x = Number(raw[1]);
  const value = Number(raw.slice(8, 12));
  const itemBody = `${raw.slice(0, 8)}0000`;
  const itemCode = `${itemBody}${gtinCheckDigit(itemBody)}`;
  const measure: VariableMeasure =
    x <= 2
      ? { kind: "price", priceOre: value * [1, 10, 100][x]! }
      : { kind: "weight", grams: value * [1, 10, 100][x - 3]! };
  return { itemCode, measure };
}

/** Is this EAN-13 in the Swedish variable-measure range (20–25)? */
export const isVariableMeasure = (code: string) => parseVariableMeasure(code) !== null;

/**
 * A pant machine's voucher (pantkvitto), as the chain's machines print it:
 * an EAN-13 in GS1's range for refund receipts, `980` + a five-digit serial
 * + the value in whole kronor (four digits) + check digit. Null for any
 * other code, a wrong check digit or a value of 0. A serial is the machine's
 * to keep unique for a value; each printed voucher is taken once in the
 * whole chain (the server keeps every one it took).
 */
export const PANT_VOUCHER_PREFIX = "980";

export function pantVoucherOf(code: string): { code: string; amountOre: number } | null {
  const raw = code.replace(/[\s-]/g, "");
  if (!/^980\d{10}$/.test(raw) || !hasValidCheckDigit(raw)) return null;
  const kronor = Number(raw.slice(8, 12));
  return kronor > 0 ? { code: raw, amountOre: kronor * 100 } : null;
}
