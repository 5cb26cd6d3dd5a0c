/**
 * The shopper app's constants and its entry QR format, with no zod: the
 * shopper's phone bundle imports this module alone ("@glide/contracts/shopper").
 */

// Pure and zod-free too: the phone names a card as the server does. (Barcodes have a subpath of their own,
// "@glide/contracts/barcodes": re-exported here, they split the phone's first page into tiny chunks.)
export { cardBrandName } from "./card-brands.ts";
// The phone shows a jämförpris beside a price as the server computes it.
export { type ComparisonUnit, comparisonPrice, NET_CONTENT_UNITS, type NetContentUnit } from "./comparison-price.ts";

/** Browser storage keys of the shopper app (shopper-app.md §3). */
export const SHOPPER_STORAGE_KEYS = {
  accessToken: "glide_access_token",
  refreshToken: "glide_refresh_token",
  userId: "glide_user_id",
  userName: "glide_user_name",
  authToken: "auth_token",
  sessionId: "session_id",
  sessionToken: "session_token",
  storeId: "store_id",
  cart: "glide_cart",
} as const;

/** Timings from shopper-app.md §9, in milliseconds. */
export const SHOPPER_TIMING = {
  entryValidityMs: 600_000,
  doorPollMs: 2_000,
  collectPollMs: 2_000,
  qrRefreshMs: 1_000,
  afterLoginRedirectMs: 1_000,
  afterDoorRedirectMs: 1_500,
  /** The scanner reads this many frames a second. */
  scanFramesPerSecond: 10,
  /** How long '✓ … tillagd!' stays. */
  scanMessageMs: 2_000,
  /** The shopping page's scanner tries 2× zoom this long after it starts. */
  zoomAfterMs: 1_000,
  afterCheckoutRedirectMs: 5_000,
  /** The exit page waits this long for the face check before it shows the exit QR code; the server gives up 2 s sooner. */
  faceVerifyWaitMs: 7_000,
} as const;

/** The scan box (shopper-app.md §9): a share of the smaller video side on the shopping page, CSS pixels on manual scan. */
export const SCAN_BOX = {
  shopShare: 0.7,
  manualPx: 250,
} as const;

/**
 * What the entry QR code says: the session, its one-time token and the
 * store; nothing about the person. "GLIDE1.<session>.<token>.<store>".
 */
export function encodeEntryQr(entry: { session_id: string; session_token: string; store_id: string }): string {
  return `GLIDE1.${entry.session_id}.${entry.session_token}.${entry.store_id}`;
}

export function decodeEntryQr(text: string): { session_id: string; session_token: string; store_id: string } | null {
  const m = /^GLIDE1\.([0-9a-f-]{36})\.([\w-]{16,200})\.([0-9a-f-]{36})$/.exec(text.trim());
  return m ? { session_id: m[1]!, session_token: m[2]!, store_id: m[3]! } : null;
}
