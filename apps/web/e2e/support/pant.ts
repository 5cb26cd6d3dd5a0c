import { gtinCheckDigit } from "@glide/contracts";
import type { APIRequestContext } from "@playwright/test";
import { expect } from "../fixtures.ts";

/** A well-formed voucher code worth `kronor` with a random serial: 980, the serial, the kronor, the check digit. */
export function voucherCode(kronor: number): string {
  const serial = String(Math.floor(Math.random() * 1e5)).padStart(5, "0");
  const body = `980${serial}${String(kronor).padStart(4, "0")}`;
  return body + gtinCheckDigit(body);
}

/**
 * A pant machine voucher worth `kronor`, printed by a machine of `storeId`:
 * the machine's key made in the console's way (the request is the signed-in
 * platform admin's), and the voucher reported as the machine reports it. Only
 * such a voucher pays in a cart.
 */
export async function printedVoucher(request: APIRequestContext, storeId: string, kronor: number): Promise<string> {
  const made = await request.post(`/api/v1/stores/${storeId}/device-keys`, { data: { kind: "pant_machine" } });
  expect(made.ok(), await made.text()).toBe(true);
  const { key } = (await made.json()) as { key: string };
  // A serial drawn at random may have been printed by an earlier run's machine (409): draw again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = voucherCode(kronor);
    const reported = await request.post("/api/v1/pant-vouchers", {
      data: { barcode: code },
      headers: { Authorization: `Device ${key}` },
    });
    if (reported.status() === 409) continue;
    expect(reported.status(), await reported.text()).toBe(201);
    return code;
  }
  throw new Error("no free voucher serial in five draws");
}
