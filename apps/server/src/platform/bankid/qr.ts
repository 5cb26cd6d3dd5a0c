import { createHmac } from "node:crypto";

/**
 * BankID's animated QR: "bankid." + qrStartToken + "." + qrTime + "." +
 * HMAC-SHA256(key = qrStartSecret as text, message = qrTime) in hex, where
 * qrTime counts whole seconds since the /auth response.
 */
export function qrCodeData(qrStartToken: string, qrStartSecret: string, qrTime: number): string {
  const time = String(Math.max(0, Math.floor(qrTime)));
  const authCode = createHmac("sha256", qrStartSecret).update(time).digest("hex");
  return `bankid.${qrStartToken}.${time}.${authCode}`;
}
