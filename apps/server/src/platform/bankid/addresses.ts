/**
 * The addresses a same-device BankID sign-in travels through: the BankID app
 * the page opens, and the page BankID sends the shopper back to. Both depend
 * on the host name the shopper's browser used, which need not be PUBLIC_URL's
 * (a phone on the network, 127.0.0.1 instead of localhost).
 */

/** Characters BankID takes in `web.referringDomain`: a DNS name or an IPv4 address. */
const DOMAIN = /^[0-9a-z.-]+$/;
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

export type PageRequest = { headers: { origin?: string | undefined }; protocol: string; host: string };

/**
 * The origin of the page that made this request, or `publicUrl`'s. A
 * browser's Origin header that equals the address the request was sent to
 * (same origin) names a page this server served under that name; the
 * sign-in must return there, where its device cookie and stored order are.
 * Anything else (no Origin, another site, an IPv6 literal BankID does not
 * take as a domain) gets the configured public address.
 */
export function pageOrigin(request: PageRequest, publicUrl: string): string {
  const fallback = new URL(publicUrl).origin;
  const origin = request.headers.origin;
  if (!origin) return fallback;
  try {
    const page = new URL(origin);
    const target = new URL(`${request.protocol}://${request.host}`);
    if (page.origin !== target.origin || !DOMAIN.test(page.hostname)) return fallback;
    return page.origin;
  } catch {
    return fallback;
  }
}

/**
 * The BankID app's address for a page opened under `hostname`. A loopback
 * address in the configuration (the simulator beside `npm start`) means "this
 * machine", which for a phone is the server's host name, not its own loopback.
 */
export function bankIdAppUrlFor(configured: string, hostname: string): string {
  const url = new URL(configured);
  if (!LOOPBACK.test(url.hostname) || !(DOMAIN.test(hostname) || hostname === "[::1]")) return url.href;
  url.hostname = hostname;
  return url.href;
}
