/**
 * When the entry QR code stops working, in this device's clock. The server's
 * expires_at is used as it is unless the phone's clock is clearly off from the
 * server's (its Date header counts whole seconds, so small gaps are noise).
 */
export function localDeadline(expiresAt: string, serverDate: string | null, now = Date.now()): number {
  const expires = Date.parse(expiresAt);
  const server = serverDate ? Date.parse(serverDate) + 500 : Number.NaN;
  const skew = Number.isNaN(server) ? 0 : server - now;
  return Math.abs(skew) > 2_000 ? expires - skew : expires;
}

/** Seconds as m:ss, e.g. 600 → "10:00", 9 → "0:09". */
export function formatMinutesSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
