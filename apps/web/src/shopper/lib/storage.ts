import { SHOPPER_STORAGE_KEYS as KEYS } from "@glide/contracts/shopper";

/*
 * The shopper's tokens and visit live in localStorage: they must survive the
 * trip to the BankID app and back (which may come back in a new tab) and a
 * reload in the store.
 */

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the flow then lasts for this page only.
  }
}

/** When the entry QR code stops working, in this device's clock (ms since epoch). Not a spec key. */
const ENTRY_DEADLINE_KEY = "session_expires_at";
/** A BankID sign-in that is still running, so a return from the BankID app can pick it up. Not a spec key. */
const PENDING_ORDER_KEY = "glide_bankid_order";

export interface Tokens {
  access_token: string;
  refresh_token: string;
  user?: { id: string; name: string } | undefined;
}

export const tokenStore = {
  userId: () => read(KEYS.userId),
  access: () => read(KEYS.accessToken),
  refresh: () => read(KEYS.refreshToken),
  save(tokens: Tokens): void {
    write(KEYS.accessToken, tokens.access_token);
    // The spec's older name for the same token.
    write(KEYS.authToken, tokens.access_token);
    write(KEYS.refreshToken, tokens.refresh_token);
    if (tokens.user) {
      write(KEYS.userId, tokens.user.id);
      write(KEYS.userName, tokens.user.name);
    }
  },
  clear(): void {
    for (const key of [KEYS.accessToken, KEYS.authToken, KEYS.refreshToken, KEYS.userId, KEYS.userName]) {
      write(key, null);
    }
  },
};

export interface StoredEntry {
  session_id: string;
  session_token: string;
  store_id: string;
  /** Local-clock deadline of the entry QR code, ms since epoch. */
  deadline: number;
}

/** After a paid exit: the visit and its offline cart copy are over (spec §3: glide_cart is cleared). */
export function forgetVisit(): void {
  for (const key of [KEYS.sessionId, KEYS.sessionToken, KEYS.storeId, ENTRY_DEADLINE_KEY, KEYS.cart]) write(key, null);
}

export const entryStore = {
  sessionId: () => read(KEYS.sessionId),
  storeId: () => read(KEYS.storeId),
  read(): StoredEntry | null {
    const session_id = read(KEYS.sessionId);
    const session_token = read(KEYS.sessionToken);
    const store_id = read(KEYS.storeId);
    const deadline = Number(read(ENTRY_DEADLINE_KEY));
    if (!session_id || !session_token || !store_id || !Number.isFinite(deadline) || deadline <= 0) return null;
    return { session_id, session_token, store_id, deadline };
  },
  /** "Fortsätt handla" on another tab or after a reload: the visit the server says is open becomes this phone's. */
  resume(visit: { session_id: string; store_id: string }): void {
    if (read(KEYS.sessionId) !== visit.session_id) write(KEYS.sessionToken, null);
    write(KEYS.sessionId, visit.session_id);
    write(KEYS.storeId, visit.store_id);
  },
  /** No code yet for this store (the door asks for a card first): the entry QR page asks for one itself. */
  awaitCode(storeId: string): void {
    for (const key of [KEYS.sessionId, KEYS.sessionToken, ENTRY_DEADLINE_KEY]) write(key, null);
    write(KEYS.storeId, storeId);
  },
  save(entry: StoredEntry): void {
    write(KEYS.sessionId, entry.session_id);
    write(KEYS.sessionToken, entry.session_token);
    write(KEYS.storeId, entry.store_id);
    write(ENTRY_DEADLINE_KEY, String(entry.deadline));
  },
  clear(): void {
    for (const key of [KEYS.sessionId, KEYS.sessionToken, KEYS.storeId, ENTRY_DEADLINE_KEY]) write(key, null);
  },
};

export interface PendingOrder {
  orderRef: string;
  autoStartToken: string;
  /** The login page's store_id parameter the order was started for. */
  storeParam: string;
  startedAt: number;
}

/** BankID forgets an order that no app picked up after 30 s, and any order after 3 minutes. */
const ORDER_LIFETIME_MS = 170_000;

export const orderStore = {
  read(storeParam: string): PendingOrder | null {
    try {
      const order = JSON.parse(read(PENDING_ORDER_KEY) ?? "null") as PendingOrder | null;
      if (!order || order.storeParam !== storeParam || Date.now() - order.startedAt > ORDER_LIFETIME_MS) return null;
      return order;
    } catch {
      return null;
    }
  },
  save(order: PendingOrder): void {
    write(PENDING_ORDER_KEY, JSON.stringify(order));
  },
  clear(): void {
    write(PENDING_ORDER_KEY, null);
  },
};
