/**
 * The card page's `?return=`: where the shopper was (the exit, the entry
 * code) and goes back to once a card is saved. Only a path of the shopper
 * app on this origin is taken; anything else is ignored, so a link cannot
 * send a shopper from the card page to another site.
 */
export function safeReturnPath(value: string | null): string | null {
  // "//host" and "/\host" are other sites to a browser, though they start with a slash.
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  let url: URL;
  try {
    url = new URL(value, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  // The URL parser has resolved any "..": the path it names is the one checked.
  if (url.pathname !== "/customer" && !url.pathname.startsWith("/customer/")) return null;
  if (url.pathname.startsWith("/customer/betalkort")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The card page, coming back to `returnTo` afterwards. */
export const cardPageFor = (returnTo: string) => `/customer/betalkort?return=${encodeURIComponent(returnTo)}`;

/** The membership section's address on the card page. */
export const MEMBERSHIP_ANCHOR = "medlemskap";

/** The card page's membership section, coming back to `returnTo` afterwards: where the cart's "Bli medlem" leads. */
export const membershipPageFor = (returnTo: string) => `${cardPageFor(returnTo)}#${MEMBERSHIP_ANCHOR}`;
