import type { Cart } from "@glide/contracts";
import { refreshTokens } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { tokenStore } from "../lib/storage.ts";
import type { AddedProduct } from "./cart-sync.ts";

/*
 * The live cart (docs/live-cart.md): one WebSocket per visit that hands every
 * change made anywhere (this phone, another tab, the store's recognition
 * worker) to the page. The token goes in the first message, never in the
 * address. Every (re)connect answers with the whole cart, so nothing missed
 * while the phone was in a radio shadow stays missing.
 */

export type LiveCartEvent =
  | { type: "cart"; cart: Cart }
  /** One more of a product, before the `cart_updated` that always follows. */
  | { type: "product_added"; product: AddedProduct }
  | { type: "connection"; connected: boolean }
  /** The visit is not this shopper's, or is gone: stop, as the spec's gate would. */
  | { type: "forbidden" }
  /** The sign-in has ended (signed out, or ended as stolen) and cannot be renewed: signing in again is the way on. */
  | { type: "signed_out" };

/** The server's close codes (docs/live-cart.md); 1012: the instance is restarting, another takes the phone at once. */
const CLOSE = { badRequest: 4400, unauthorized: 4401, forbidden: 4403, replaced: 4409, restart: 1012 } as const;

/** After a restart's close: back within half a second, spread so a store's phones do not all arrive at once. */
export const restartDelay = (): number => Math.round(Math.random() * 500);

/** 1, 2, 4 … 30 s, with a little jitter so a store's phones do not all come back in the same second. */
export function backoffDelay(attempt: number): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

function socketAddress(sessionId: string): string {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return `${protocol}//${location.host}/ws/cart?session_id=${encodeURIComponent(sessionId)}`;
}

/** Opens the live cart and keeps it open until the returned function is called. */
export function connectLiveCart(sessionId: string, onEvent: (event: LiveCartEvent) => void): () => void {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  /** Nothing more to do on this page: the visit is not ours, the address is wrong, or the sign-in is over. */
  let over = false;
  /** This connection came straight after a token renewal; a 4401 now would not be cured by another. */
  let renewed = false;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(open, delay);
  };

  function open(): void {
    if (stopped) return;
    const current = new WebSocket(socketAddress(sessionId));
    socket = current;
    current.onopen = () => {
      current.send(JSON.stringify({ type: "auth", access_token: tokenStore.access() ?? "" }));
    };
    current.onmessage = (message) => {
      let data: { type?: string; cart?: Cart; product?: Partial<AddedProduct> };
      try {
        data = JSON.parse(String(message.data)) as typeof data;
      } catch {
        return;
      }
      if ((data.type === "ready" || data.type === "cart_updated") && data.cart) {
        if (data.type === "ready") {
          attempt = 0;
          renewed = false;
          onEvent({ type: "connection", connected: true });
        }
        onEvent({ type: "cart", cart: data.cart });
      }
      if (
        data.type === "product_added" &&
        typeof data.product?.id === "string" &&
        typeof data.product.price === "number"
      ) {
        onEvent({ type: "product_added", product: data.product as AddedProduct });
      }
      // product_removed and cart_changed are left to the cart_updated that always follows them.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      if (stopped) return;
      onEvent({ type: "connection", connected: false });
      if (event.code === CLOSE.forbidden) {
        over = true;
        onEvent({ type: "forbidden" });
        return;
      }
      if (event.code === CLOSE.badRequest) {
        over = true;
        log.warn("Live cart refused the session id", event.reason);
        return;
      }
      if (event.code === CLOSE.restart) {
        attempt = 0;
        schedule(restartDelay());
        return;
      }
      if (event.code === CLOSE.replaced) {
        // A newer socket of this visit (another tab) took this one's place. Connecting again now would close
        // that one, which would do the same: the two would take turns for ever. Back when the page is shown again.
        return;
      }
      if (event.code === CLOSE.unauthorized) {
        if (renewed) {
          // Refused again with a token just renewed: another renewal would be refused the same way.
          log.warn("Live cart refused a renewed token", event.reason);
          return;
        }
        // The access token expired, or the sign-in ended: renew the token once, then come back at once.
        void refreshTokens().then((ok) => {
          if (stopped) return;
          if (ok) {
            renewed = true;
            schedule(0);
          } else if (!tokenStore.refresh()) {
            // The server refused the refresh token (and it was forgotten): the sign-in is over.
            over = true;
            onEvent({ type: "signed_out" });
          } else {
            // The renewal did not reach the server: try again later.
            schedule(backoffDelay(attempt++));
          }
        });
        return;
      }
      schedule(backoffDelay(attempt++));
    };
  }

  // Back online, or the page shown again: try now rather than at the end of a long backoff, or after a 4409.
  const reconnectNow = () => {
    if (!socket && !stopped && !over) {
      attempt = 0;
      renewed = false;
      schedule(0);
    }
  };
  const shown = () => {
    if (document.visibilityState === "visible") reconnectNow();
  };
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", shown);
  open();

  return () => {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener("online", reconnectNow);
    document.removeEventListener("visibilitychange", shown);
    socket?.close(1000);
    socket = null;
  };
}
