import { parseBarcode } from "@glide/contracts/barcodes";

export type TypedBarcodeError = "empty" | "digits" | "length" | "check";

/**
 * A barcode typed by hand, checked on the phone before it is sent: digits
 * only (the spaces printed between groups are dropped), the length of an
 * EAN-8, UPC-A, EAN-13 or GTIN-14, and a check digit that agrees with the
 * rest, as the server's own barcode rules say (`parseBarcode`). Each refusal
 * has its own message, so the shopper knows what to look at again.
 */
export function checkTypedBarcode(input: string): { ok: true; code: string } | { ok: false; error: TypedBarcodeError } {
  const code = input.replace(/\s+/g, "");
  if (code === "") return { ok: false, error: "empty" };
  if (!/^\d+$/.test(code)) return { ok: false, error: "digits" };
  if (![8, 12, 13, 14].includes(code.length)) return { ok: false, error: "length" };
  return parseBarcode(code) ? { ok: true, code } : { ok: false, error: "check" };
}
