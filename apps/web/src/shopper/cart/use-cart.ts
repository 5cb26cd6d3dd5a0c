import type { Cart, CartDiscount, CartItem, CartVoucher } from "@glide/contracts";
import { SHOPPER_STORAGE_KEYS, SHOPPER_TIMING } from "@glide/contracts/shopper";
import { useCallback, useEffect, useRef, useState } from "react";
import { ShopperApiError, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";
import { cartKeeper, discountsOf, memberTotalOf, offlineCopyOf, toPayOf, vouchersOf } from "./cart-sync.ts";
import { backoffDelay, connectLiveCart } from "./live-cart.ts";
import { newScanId, type PendingScan, scanQueue } from "./scan-queue.ts";
import { sendScan } from "./send-scan.ts";

export interface StatusMessage {
  tone: "success" | "error";
  text: string;
}

export interface ShoppingCart {
  sessionId: string | null;
  /** The server's cart; before it answers, the last copy this phone saw (`stale`). */
  items: CartItem[];
  /** The multi-buy discounts the server gives the cart ("3 för 2"), each its own line under the goods. */
  discounts: CartDiscount[];
  /** Kronor: the server's total, goods and pant less the discounts; what the exit charges. */
  total: number;
  /** Kronor a member would pay, when less than `total` (the shopper is no member); else null. */
  memberTotal: number | null;
  /** Pant machine vouchers (pantkvitton) in the cart: they pay part of `total`. */
  vouchers: CartVoucher[];
  /** Kronor the card pays: `total` less the vouchers, never below 0. */
  toPay: number;
  /** Pieces in the cart, for the header badge. */
  count: number;
  loaded: boolean;
  /** The lines are this phone's last copy, not the server's answer. */
  stale: boolean;
  /** The live connection is up. */
  connected: boolean;
  /** The visit is not this shopper's (or is over), or the sign-in has ended: the page sends them to the start. */
  forbidden: boolean;
  /** Scans kept on the phone until the connection is back. */
  pending: PendingScan[];
  message: StatusMessage | null;
  scan(barcode: string): Promise<void>;
  setQuantity(item: CartItem, quantity: number): Promise<void>;
  remove(item: CartItem): Promise<void>;
  removeVoucher(voucher: CartVoucher): Promise<void>;
  say(message: StatusMessage | null): void;
}

function readOfflineCopy(sessionId: string): Cart | null {
  try {
    const cart = JSON.parse(localStorage.getItem(SHOPPER_STORAGE_KEYS.cart) ?? "null") as Cart | null;
    if (!cart || cart.session_id !== sessionId || !Array.isArray(cart.items)) return null;
    return offlineCopyOf(cart);
  } catch {
    return null;
  }
}

function saveOfflineCopy(cart: Cart): void {
  try {
    localStorage.setItem(SHOPPER_STORAGE_KEYS.cart, JSON.stringify(cart));
  } catch {
    // No storage: there is simply no offline copy.
  }
}

/** A 4xx other than 408/429 means this scan will never succeed as it is: say why and drop it. */
const isFinal = (error: unknown) =>
  error instanceof ShopperApiError && error.status < 500 && error.status !== 408 && error.status !== 429;

/**
 * The visit's cart as both shopping pages show it: the server's cart is the
 * truth, pushed over the live cart socket; a scan's answer and the socket's
 * `product_added` are applied to it where they fit (cart-sync.ts), and it is
 * read again when they do not, after a refused scan, and when the phone is
 * back online. `glide_cart` is only a copy to show while the phone has no connection.
 */
export function useCart(sessionId: string | null): ShoppingCart {
  const [cart, setCartState] = useState<Cart | null>(() => (sessionId ? readOfflineCopy(sessionId) : null));
  const [loaded, setLoaded] = useState(false);
  const [connected, setConnected] = useState(false);
  const [forbidden, setForbidden] = useState(false);
  const [pending, setPending] = useState<PendingScan[]>(() => (sessionId ? scanQueue.list(sessionId) : []));
  const [message, setMessage] = useState<StatusMessage | null>(null);
  const messageTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const retryAttempt = useRef(0);
  const flushing = useRef<Promise<void> | null>(null);
  const live = useRef(true);
  /** The server's cart as this phone last heard it, and how each answer and message changes it. */
  const [keeper] = useState(() =>
    cartKeeper((next) => {
      if (!live.current) return;
      setCartState(next);
      setLoaded(true);
      saveOfflineCopy(next);
    }),
  );

  const say = useCallback((next: StatusMessage | null) => {
    clearTimeout(messageTimer.current);
    setMessage(next);
    // Spec §4: a success shows for 2 s, then clears; an error stays until the next scan.
    if (next?.tone === "success")
      messageTimer.current = setTimeout(() => setMessage(null), SHOPPER_TIMING.scanMessageMs);
  }, []);

  const reload = useCallback(async () => {
    if (!sessionId) return;
    try {
      await keeper.read(() => shopperApi.cart(sessionId));
    } catch (error) {
      if (error instanceof ShopperApiError && (error.status === 403 || error.status === 404)) setForbidden(true);
      log.warn("Could not load the cart", error);
    }
  }, [sessionId, keeper]);

  /** Sends waiting scans in the order they were made; stops at the first that cannot get through. */
  const flush = useCallback((): Promise<void> => {
    if (!sessionId) return Promise.resolve();
    flushing.current ??= (async () => {
      clearTimeout(retryTimer.current);
      let blocked = false;
      let sent = 0;
      /** An answer the copy could not take, or a refused scan: only the whole cart says where it stands. */
      let behind = false;
      for (const scan of scanQueue.list(sessionId)) {
        try {
          const done = await sendScan(keeper, scan);
          scanQueue.remove(scan.scan_id);
          sent++;
          if (done.behind) behind = true;
          say({ tone: "success", text: done.text });
        } catch (error) {
          if (!isFinal(error)) {
            blocked = true;
            break;
          }
          scanQueue.remove(scan.scan_id);
          behind = true;
          say({ tone: "error", text: messageOfScan(error) });
        }
      }
      if (!live.current) return;
      setPending(scanQueue.list(sessionId));
      if (blocked) {
        retryTimer.current = setTimeout(() => void flush(), backoffDelay(retryAttempt.current++));
      } else {
        retryAttempt.current = 0;
        // Nothing sent (the page opened, or the phone came back online): read the cart anyway.
        if (behind || sent === 0) await reload();
      }
    })().finally(() => {
      flushing.current = null;
    });
    return flushing.current;
  }, [sessionId, reload, say, keeper]);

  useEffect(() => {
    live.current = true;
    keeper.reset();
    if (!sessionId) return;
    void reload();
    void flush();
    const stop = connectLiveCart(sessionId, (event) => {
      if (event.type === "cart") keeper.socketCart(event.cart);
      else if (event.type === "product_added") keeper.productAdded(event.product);
      // Signed out (elsewhere, or ended as stolen): nothing on this page works without signing in again.
      else if (event.type === "forbidden" || event.type === "signed_out") setForbidden(true);
      else {
        setConnected(event.connected);
        // Back in touch: whatever waited on the phone goes now.
        if (event.connected && scanQueue.list(sessionId).length) {
          retryAttempt.current = 0;
          void flush();
        }
      }
    });
    const online = () => {
      retryAttempt.current = 0;
      void flush();
    };
    window.addEventListener("online", online);
    return () => {
      live.current = false;
      stop();
      window.removeEventListener("online", online);
      clearTimeout(retryTimer.current);
      clearTimeout(messageTimer.current);
    };
  }, [sessionId, reload, flush, keeper]);

  const scan = useCallback(
    async (barcode: string) => {
      if (!sessionId) {
        say({ tone: "error", text: sv.scan.noSession });
        return;
      }
      const queued: PendingScan = { scan_id: newScanId(), session_id: sessionId, barcode, at: Date.now() };
      scanQueue.add(queued);
      setPending(scanQueue.list(sessionId));
      // A flush already under way may have passed this scan by: wait for it, then send again.
      if (flushing.current) await flushing.current;
      await flush();
      if (scanQueue.list(sessionId).some((waiting) => waiting.scan_id === queued.scan_id)) {
        say({ tone: "error", text: sv.scan.network });
      }
    },
    [sessionId, flush, say],
  );

  const setQuantity = useCallback(
    async (item: CartItem, quantity: number) => {
      try {
        const cart = await keeper.change(() =>
          quantity > 0 ? shopperApi.setQuantity(item.id, quantity) : shopperApi.removeItem(item.id),
        );
        // One more is echoed on the socket as product_added, which this answer already shows.
        keeper.answerCart(cart, quantity === item.quantity + 1 ? item.product.id : undefined);
      } catch (error) {
        // Spec §8: cart update failures are only logged.
        log.warn("Could not change the quantity", error);
        await reload();
      }
    },
    [keeper, reload],
  );

  const remove = useCallback(
    async (item: CartItem) => {
      try {
        keeper.answerCart(await shopperApi.removeItem(item.id));
      } catch (error) {
        log.warn("Could not remove the line", error);
        await reload();
      }
    },
    [keeper, reload],
  );

  const removeVoucher = useCallback(
    async (voucher: CartVoucher) => {
      if (!sessionId) return;
      try {
        keeper.answerCart(await shopperApi.removeVoucher(sessionId, voucher.code));
      } catch (error) {
        log.warn("Could not remove the voucher", error);
        await reload();
      }
    },
    [sessionId, keeper, reload],
  );

  const items = cart?.items ?? [];
  return {
    sessionId,
    items,
    discounts: cart ? discountsOf(cart) : [],
    total: cart?.total ?? 0,
    memberTotal: cart ? memberTotalOf(cart) : null,
    vouchers: cart ? vouchersOf(cart) : [],
    toPay: cart ? toPayOf(cart) : 0,
    count: items.reduce((sum, item) => sum + item.quantity, 0),
    loaded,
    stale: !loaded && cart !== null,
    connected,
    forbidden,
    pending,
    message,
    scan,
    setQuantity,
    remove,
    removeVoucher,
    say,
  };
}

function messageOfScan(error: unknown): string {
  return error instanceof ShopperApiError && error.detail ? sv.scan.failed(error.detail) : sv.scan.notFound;
}
