/**
 * Is this a phone or tablet, where BankID runs on the same device (autostart)
 * rather than by scanning a QR code shown on a computer? iPadOS reports itself
 * as a Mac, so a touch screen on "MacIntel" counts too.
 */
export function isMobileDevice(): boolean {
  const ua = navigator.userAgent;
  return (
    /Android|iPhone|iPad|iPod|Mobile/i.test(ua) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1)
  );
}
