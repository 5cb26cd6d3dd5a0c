import { SHOPPER_TIMING } from "@glide/contracts/shopper";
import { useCallback, useEffect, useRef, useState } from "react";
import { isAbort, messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { orderStore, type PendingOrder, type Tokens, tokenStore } from "../lib/storage.ts";
import { usePoll } from "../lib/use-poll.ts";
import { sv } from "../sv.ts";
import { bankIdAppBase, bankIdAppLink } from "./bankid-app.ts";

export type BankIdPhase = "idle" | "starting" | "pending" | "failed" | "done";

export interface BankIdState {
  phase: BankIdPhase;
  order: PendingOrder | null;
  /** The link that opens the BankID app on this device with the order (mobile only). */
  appLink: string | null;
  /** The animated QR code's data for the current second (desktop). */
  qrData: string | null;
  /** BankID's recommended text for the current state, in Swedish. */
  message: string | null;
  error: string | null;
}

const idle: BankIdState = { phase: "idle", order: null, appLink: null, qrData: null, message: null, error: null };

interface Options {
  /** The login page's store_id parameter; null keeps BankID off. */
  storeParam: string | null;
  enabled: boolean;
  /** BankID on this device (autostart) rather than a QR code for another one. */
  mobile: boolean;
  /** Called once when BankID is done; the tokens are already stored. */
  onSignedIn: (tokens: Tokens) => void;
}

/**
 * One BankID sign-in (spec §4 BankID flow): start (or pick up the order a
 * trip to the BankID app left behind), poll collect every 2 s and, on a
 * computer, the QR data every second. Leaving the page cancels an order that
 * is still running.
 */
export function useBankIdSignIn({ storeParam, enabled, mobile, onSignedIn }: Options) {
  const [state, setState] = useState<BankIdState>(idle);
  const [attempt, setAttempt] = useState(0);
  /** The order to cancel if the page goes away while it runs. */
  const running = useRef<string | null>(null);
  const signedIn = useRef(onSignedIn);
  useEffect(() => {
    signedIn.current = onSignedIn;
  });

  const settle = useCallback(() => {
    running.current = null;
    orderStore.clear();
  }, []);

  const cancelRunning = useCallback(() => {
    const orderRef = running.current;
    if (!orderRef) return;
    settle();
    shopperApi.cancelSignIn(orderRef).catch((error: unknown) => log.warn("Could not cancel the BankID order", error));
  }, [settle]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how "Försök igen" starts a new order.
  useEffect(() => {
    if (!enabled || !storeParam) return;
    const controller = new AbortController();
    setState({ ...idle, phase: "starting" });

    const start = async () => {
      // Asked beside the order, not after it: the app opens as soon as both are known.
      const appBase = mobile ? bankIdAppBase() : null;
      const resumed = orderStore.read(storeParam);
      let order = resumed;
      if (!order) {
        const answer = await shopperApi.startSignIn(
          mobile
            ? { autostart: true, return_path: `/customer/login?store_id=${encodeURIComponent(storeParam)}` }
            : { autostart: false },
          controller.signal,
        );
        order = {
          orderRef: answer.order_ref,
          autoStartToken: answer.auto_start_token,
          storeParam,
          startedAt: Date.now(),
        };
        orderStore.save(order);
      }
      const appLink = appBase ? bankIdAppLink(await appBase, order.autoStartToken) : null;
      if (controller.signal.aborted) return;
      running.current = order.orderRef;
      setState({ ...idle, phase: "pending", order, appLink });
      // Open the BankID app on this phone; not again when coming back from it.
      if (appLink && !resumed) window.location.assign(appLink);
    };
    start().catch((error: unknown) => {
      if (!isAbort(error)) setState({ ...idle, phase: "failed", error: messageOf(error, sv.login.errors.start) });
    });

    return () => {
      controller.abort();
      cancelRunning();
    };
  }, [enabled, storeParam, mobile, attempt, cancelRunning]);

  const pending = state.phase === "pending" && state.order !== null;
  const orderRef = state.order?.orderRef ?? null;

  usePoll(
    async (signal) => {
      if (!orderRef) return;
      try {
        const answer = await shopperApi.collect(orderRef, signal);
        if (signal.aborted) return;
        if (answer.status === "pending") {
          setState((s) => (s.order?.orderRef === orderRef ? { ...s, message: answer.message } : s));
          return;
        }
        settle();
        if (answer.status === "failed" || !answer.access_token || !answer.refresh_token) {
          setState((s) => ({ ...s, phase: "failed", error: answer.message || sv.login.errors.bankid }));
          return;
        }
        const tokens = { access_token: answer.access_token, refresh_token: answer.refresh_token, user: answer.user };
        tokenStore.save(tokens);
        setState((s) => ({ ...s, phase: "done", message: null }));
        signedIn.current(tokens);
      } catch (error) {
        // An unknown or finished order will not come right by asking again; network trouble may.
        if (error instanceof ShopperApiError && error.status < 500 && error.status !== 429) {
          settle();
          setState((s) => ({ ...s, phase: "failed", error: messageOf(error, sv.login.errors.bankid) }));
          return;
        }
        throw error;
      }
    },
    SHOPPER_TIMING.collectPollMs,
    pending,
  );

  usePoll(
    async (signal) => {
      if (!orderRef) return;
      const { qr_code_data } = await shopperApi.qr(orderRef, signal);
      setState((s) => (s.phase === "pending" && s.order?.orderRef === orderRef ? { ...s, qrData: qr_code_data } : s));
    },
    SHOPPER_TIMING.qrRefreshMs,
    pending && !mobile,
  );

  return {
    state,
    /** Start a new order ('Försök igen'). */
    restart: useCallback(() => setAttempt((n) => n + 1), []),
    /** Stop here (signed in another way): a running order is cancelled. */
    stop: useCallback(() => {
      cancelRunning();
      setState((s) => ({ ...s, phase: "done" }));
    }, [cancelRunning]),
  };
}
