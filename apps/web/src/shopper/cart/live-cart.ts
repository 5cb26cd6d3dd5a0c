import type { Cart } from "@glide/contracts";
import { refreshTokens } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { tokenStore } from "../lib/storage.ts";

/*
 * The live cart (docs/live-cart.md): one WebSocket per visit that hands every
 * change made anywhere (this phone, another tab, the store's recognition
 * worker) to the page. The token goes in the first message, never in the
 * address. Every (re)connect answers with the whole cart, so nothing missed
 * while the phone was in a radio shadow stays missing.
 */

export type LiveCartEvent =
  | { type: "cart"; cart: Cart }
  | { type: "connection"; connected: boolean }
  /** The visit is not this shopper's, or is gone: stop, as the spec's gate would. */
  | { type: "forbidden" };

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
      let data: { type?: string; cart?: Cart };
      try {
        data = JSON.parse(String(message.data)) as typeof data;
      } catch {
        return;
      }
      if ((data.type === "ready" || data.type === "cart_updated") && data.cart) {
        if (data.type === "ready") {
          attempt = 0;
          onEvent({ type: "connection", connected: true });
        }
        onEvent({ type: "cart", cart: data.cart });
      }
      // product_added / product_removed are always followed by cart_updated, which is what the page shows.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      if (stopped) return;
      onEvent({ type: "connection", connected: false });
      if (event.code === 4403) {
        onEvent({ type: "forbidden" });
        return;
      }
      if (event.code === 4400) {
        log.warn("Live cart refused the session id", event.reason);
        return;
      }
      if (event.code === 4401) {
        // An expired access token: renew it, then come back at once; a refused renewal waits its turn.
        void refreshTokens().then((renewed) => schedule(renewed && attempt === 0 ? 0 : backoffDelay(attempt++)));
        return;
      }
      schedule(backoffDelay(attempt++));
    };
  }

  // Back online: try now rather than at the end of a long backoff.
  const reconnectNow = () => {
    if (!socket && !stopped) {
      attempt = 0;
      schedule(0);
    }
  };
  window.addEventListener("online", reconnectNow);
  open();

  return () => {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener("online", reconnectNow);
    socket?.close(1000);
    socket = null;
  };
}
