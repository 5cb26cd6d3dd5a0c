import type {
  AuthInitResponse,
  Cart,
  CheckoutResponse,
  CollectResponse,
  cartScanResponseSchema,
  doorScanResponseSchema,
  doorStatusSchema,
  EntrySession,
  ExitStatus,
  ExitToken,
  FaceConsent,
  FaceVerifyResponse,
  Membership,
  OpenVisit,
  Profile,
  PublicConfig,
  PublicStore,
  paymentMethodResponseSchema,
  QrResponse,
  Receipt,
  receiptSummarySchema,
  ShopperTokens,
  UnpaidVisit,
} from "@glide/contracts";
import type { z } from "zod";
import { tokenStore } from "./storage.ts";

/*
 * The shopper app's calls. Every answer's type comes from the contract with
 * `import type` (a schema's own type through z.infer): the schemas themselves
 * would bring zod into the shopper bundle.
 */

const baseUrl = (import.meta.env.VITE_API_BASE_URL ?? "").replace(/\/+$/, "");

/** The server answered with an error status; `detail` is its Swedish message when it sent one. */
export class ShopperApiError extends Error {
  readonly status: number;
  readonly detail: string | null;
  readonly code: string | null;

  constructor(status: number, detail: string | null, code: string | null) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = "ShopperApiError";
    this.status = status;
    this.detail = detail;
    this.code = code;
  }
}

/** The text to show for a failed call: the server's message when it sent one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ShopperApiError && error.detail ? error.detail : fallback;
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

interface CallOptions {
  body?: unknown;
  /** Send the access token, and on a 401 refresh it once and try again. */
  auth?: boolean;
  signal?: AbortSignal | undefined;
}

async function errorOf(response: Response): Promise<ShopperApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page): no detail to show.
  }
  const fields = (typeof body === "object" && body !== null ? body : {}) as { detail?: unknown; code?: unknown };
  return new ShopperApiError(
    response.status,
    typeof fields.detail === "string" && fields.detail ? fields.detail : null,
    typeof fields.code === "string" ? fields.code : null,
  );
}

function send(method: string, path: string, options: CallOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: "same-origin",
    cache: "no-store",
    signal: options.signal ?? null,
  });
}

let refreshing: Promise<boolean> | null = null;

/** Trades the refresh token for a new pair, once however many calls found the access token expired. */
export function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const refresh_token = tokenStore.refresh();
    if (!refresh_token) return false;
    try {
      const response = await send("POST", "/api/v1/auth/refresh", { body: { refresh_token } }, null);
      if (!response.ok) {
        // The refresh token is used up or revoked: signing in again is the only way on.
        if (response.status === 401) tokenStore.clear();
        return false;
      }
      tokenStore.save((await response.json()) as ShopperTokens);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function call<T>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ data: T; response: Response }> {
  const token = options.auth ? tokenStore.access() : null;
  let response = await send(method, path, options, token);
  if (response.status === 401 && options.auth && tokenStore.refresh()) {
    // Another call may have refreshed meanwhile; then the new token is simply used.
    const renewed = tokenStore.access() !== token || (await refreshTokens());
    if (renewed) response = await send(method, path, options, tokenStore.access());
  }
  if (!response.ok) throw await errorOf(response);
  const text = response.status === 204 ? "" : await response.text();
  return { data: (text ? JSON.parse(text) : undefined) as T, response };
}

const json = async <T>(method: string, path: string, options?: CallOptions): Promise<T> =>
  (await call<T>(method, path, options)).data;

export interface EntryAnswer {
  entry: EntrySession;
  /** The server's clock when it answered (the Date header), to show the QR code's validity right. */
  serverDate: string | null;
}

export const shopperApi = {
  config: () => json<PublicConfig>("GET", "/api/v1/public/config"),
  store: (storeId: string, signal?: AbortSignal) =>
    json<PublicStore>("GET", `/api/v1/public/stores/${encodeURIComponent(storeId)}`, { signal }),

  startSignIn: (body: { autostart: boolean; return_path?: string }, signal?: AbortSignal) =>
    json<AuthInitResponse>("POST", "/api/v1/auth/init", { body, signal }),
  qr: (orderRef: string, signal?: AbortSignal) =>
    json<QrResponse>("GET", `/api/v1/auth/qr/${encodeURIComponent(orderRef)}`, { signal }),
  collect: (orderRef: string, signal?: AbortSignal) =>
    json<CollectResponse>("POST", "/api/v1/auth/collect", { body: { order_ref: orderRef }, signal }),
  cancelSignIn: (orderRef: string) =>
    json<void>("POST", "/api/v1/auth/cancel", { body: { order_ref: orderRef }, signal: undefined }),
  devLogin: () => json<ShopperTokens>("POST", "/api/v1/auth/dev-login"),
  /** Ends the sign-in on the server: its refresh token and its access tokens stop working. */
  signOut: (refreshToken: string) =>
    json<void>("POST", "/api/v1/auth/logout", { body: { refresh_token: refreshToken } }),

  async createEntry(storeId: string): Promise<EntryAnswer> {
    const { data, response } = await call<EntrySession>("POST", "/api/v1/sessions/entry", {
      body: { store_id: storeId },
      auth: true,
    });
    return { entry: data, serverDate: response.headers.get("date") };
  },
  /** Avbryt/Börja om: the server stops the entry code opening the door, not only this phone forgetting it. */
  cancelEntry: (sessionId: string) =>
    json<void>("DELETE", `/api/v1/sessions/entry/${encodeURIComponent(sessionId)}`, { auth: true }),
  doorStatus: (sessionId: string, signal?: AbortSignal) =>
    json<DoorStatus>("GET", `/api/v1/sessions/${encodeURIComponent(sessionId)}/door-status`, {
      auth: true,
      signal,
    }),
  /** The 'Test: Öppna Dörr' button: the server lets the shopper play the door scanner only with DEV_TOOLS on. */
  openDoorForTest: (entry: { session_id: string; session_token: string; store_id: string }) =>
    json<DoorScanAnswer>("POST", "/api/v1/sessions/door/scan", { body: entry, auth: true }),

  /** One scan; `scan_id` makes a retry of the same scan add once. */
  scan: (body: { session_id: string; barcode: string; scan_id: string }) =>
    json<ScanAnswer>("POST", "/api/v1/cart/scan", { body, auth: true }),
  cart: (sessionId: string, signal?: AbortSignal) =>
    json<Cart>("GET", `/api/v1/cart/${encodeURIComponent(sessionId)}`, { auth: true, signal }),
  setQuantity: (itemId: string, quantity: number) =>
    json<Cart>("PUT", `/api/v1/cart/item/${encodeURIComponent(itemId)}`, { body: { quantity }, auth: true }),
  removeItem: (itemId: string) =>
    json<Cart>("DELETE", `/api/v1/cart/item/${encodeURIComponent(itemId)}`, { auth: true }),
  /** A pant machine voucher (pantkvitto) into the cart; `scan_id` makes a retry add it once. */
  addVoucher: (body: { session_id: string; barcode: string; scan_id: string }) =>
    json<Cart>("POST", "/api/v1/cart/vouchers", { body, auth: true }),
  removeVoucher: (sessionId: string, code: string) =>
    json<Cart>("DELETE", `/api/v1/cart/${encodeURIComponent(sessionId)}/vouchers/${encodeURIComponent(code)}`, {
      auth: true,
    }),

  card: (signal?: AbortSignal) => json<SavedCardAnswer>("GET", "/api/v1/payment-method", { auth: true, signal }),
  saveCard: (paymentMethod: string) =>
    json<SavedCardAnswer>("PUT", "/api/v1/payment-method", {
      body: { payment_method: paymentMethod },
      auth: true,
    }),
  removeCard: () => json<void>("DELETE", "/api/v1/payment-method", { auth: true }),
  receipts: (signal?: AbortSignal) => json<ReceiptSummary[]>("GET", "/api/v1/receipts", { auth: true, signal }),
  receipt: (id: string, signal?: AbortSignal) =>
    json<Receipt>("GET", `/api/v1/receipts/${encodeURIComponent(id)}`, { auth: true, signal }),
  dispute: (id: string, message: string) =>
    json<NonNullable<Receipt["dispute"]>>("POST", `/api/v1/receipts/${encodeURIComponent(id)}/dispute`, {
      auth: true,
      body: { message },
    }),
  profile: (signal?: AbortSignal) => json<Profile>("GET", "/api/v1/profile", { auth: true, signal }),
  setEmail: (email: string | null) => json<Profile>("PUT", "/api/v1/profile/email", { body: { email }, auth: true }),
  membership: (signal?: AbortSignal) => json<Membership>("GET", "/api/v1/profile/membership", { auth: true, signal }),
  /** true joins (the shopper has agreed to the terms), false leaves at once. */
  setMembership: (member: boolean) =>
    json<Membership>("PUT", "/api/v1/profile/membership", { body: { member }, auth: true }),
  faceConsent: (signal?: AbortSignal) => json<FaceConsent>("GET", "/api/v1/face/consent", { auth: true, signal }),
  setFaceConsent: (consent: boolean) =>
    json<FaceConsent>("PUT", "/api/v1/face/consent", {
      body: { consent },
      auth: true,
    }),
  faceVerify: (userId: string, signal?: AbortSignal) =>
    json<FaceVerifyResponse>("POST", "/api/v1/face/verify", {
      body: { user_id: userId },
      auth: true,
      signal,
    }),
  checkout: (userId: string) =>
    json<CheckoutResponse>("POST", "/api/v1/checkout", { body: { user_id: userId }, auth: true }),
  /** Visits the shopper left with goods and no payment; POST /api/v1/checkout pays them all. */
  unpaidVisits: (signal?: AbortSignal) => json<UnpaidVisit[]>("GET", "/api/v1/visits/unpaid", { auth: true, signal }),
  /** The shopper's visit inside a store now, for "Fortsätt handla"; null when there is none. */
  openVisit: (signal?: AbortSignal) => json<OpenVisit | null>("GET", "/api/v1/visits/open", { auth: true, signal }),
  exitToken: (signal?: AbortSignal) =>
    json<ExitToken>("GET", "/api/v1/exit/token", {
      auth: true,
      signal,
    }),
  exitStatus: (signal?: AbortSignal) =>
    json<ExitStatus>("GET", "/api/v1/exit/status", {
      auth: true,
      signal,
    }),
};

/** A scan's answer: its product, and its line as the line now stands. */
export type ScanAnswer = z.infer<typeof cartScanResponseSchema>;
type DoorStatus = z.infer<typeof doorStatusSchema>;
type DoorScanAnswer = z.infer<typeof doorScanResponseSchema>;
type SavedCardAnswer = z.infer<typeof paymentMethodResponseSchema>;
type ReceiptSummary = z.infer<typeof receiptSummarySchema>;
