import type { CheckoutResponse, Receipt } from "@glide/contracts";
import { SHOPPER_TIMING } from "@glide/contracts/shopper";
import { CircleCheck, ScanFace, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { CardNotice } from "../card/card-notice.tsx";
import { buttonClass } from "../components/button.ts";
import { PageShell } from "../components/page-shell.tsx";
import { QrImage } from "../components/qr-image.tsx";
import { Spinner } from "../components/spinner.tsx";
import { isAbort, messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { forgetVisit, tokenStore } from "../lib/storage.ts";
import { ReceiptCard } from "../receipts/receipt-card.tsx";
import { sv } from "../sv.ts";
import { NeedsCardView, Notice, NoVisitView, SignedOutView, VouchersCoverView } from "./exit-views.tsx";

/** How long after the payment the page looks once more for a spot-check notice. */
const NOTICE_RECHECK_MS = 1000;

type View =
  | { kind: "verifying" }
  | { kind: "qr" }
  | { kind: "paying" }
  | { kind: "success"; receipt: Receipt | null }
  | { kind: "error"; detail: string | null }
  /** Nothing could be paid for want of a card: the way to add one and back. */
  | { kind: "card"; text: string }
  | { kind: "none"; text: string }
  | { kind: "vouchers"; text: string }
  | { kind: "signedOut" };

/** The answers that are not a failure to be sorted out with staff, but a way on for the shopper; else null. */
function wayOn(error: unknown): View | null {
  if (!(error instanceof ShopperApiError)) return null;
  if (error.code === "no_payment_method") return { kind: "card", text: error.detail ?? sv.exit.needsCard };
  if (error.code === "no_visit") return { kind: "none", text: error.detail ?? sv.exit.noVisit };
  // Pant machine vouchers are never paid out: more goods, or a voucher taken out, and the exit pays.
  if (error.code === "vouchers_cover_cart") return { kind: "vouchers", text: error.detail ?? sv.exit.vouchersCover };
  if (error.status === 401) return { kind: "signedOut" };
  return null;
}

/** How long after its payment the exit page still shows a visit's receipt, rather than "no visit". */
const RECENTLY_PAID_MS = 10 * 60_000;
const paidJustNow = (receipt: Receipt | null) =>
  receipt !== null && Date.now() - Date.parse(receipt.paid_at) < RECENTLY_PAID_MS;

/** A new exit code a little before the last one runs out (they last two minutes). */
const TOKEN_REFRESH_MS = 100_000;
const STATUS_POLL_MS = SHOPPER_TIMING.doorPollMs;

/**
 * /customer/exit (spec §2 Exit): the face check first; where it cannot
 * verify, the exit QR code for the gate, and 'Kunde inte scanna? Tryck här'
 * to pay anyway. Success shows the receipt and returns to the start.
 */
export default function ExitPage() {
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ kind: "verifying" });
  const [code, setCode] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  // Staff check this visit at the gate (a spot check): the server's Swedish line, shown until they have.
  const [check, setCheck] = useState<string | null>(null);
  const userId = useRef(tokenStore.userId());

  const succeed = useCallback((answer: CheckoutResponse | { receipt: Receipt | null }) => {
    forgetVisit();
    setView({ kind: "success", receipt: answer.receipt });
  }, []);

  const pay = useCallback(async () => {
    if (!userId.current) {
      setView({ kind: "signedOut" });
      return;
    }
    setView({ kind: "paying" });
    try {
      succeed(await shopperApi.checkout(userId.current));
    } catch (error) {
      log.warn("Checkout failed", error);
      setView(wayOn(error) ?? { kind: "error", detail: messageOf(error, "") || null });
    }
  }, [succeed]);

  // Verifying: first whether there is a visit to leave at all (signed in, inside a store), then the face
  // check; anything but ok falls back to the QR code (spec §4).
  useEffect(() => {
    const controller = new AbortController();
    const id = userId.current;
    if (!id || !tokenStore.access()) {
      setView({ kind: "signedOut" });
      return;
    }
    (async () => {
      // Paid a moment ago (the gate was quicker than the page, or the page was opened again): the receipt, and
      // a spot check's notice if there is one, rather than "no visit".
      try {
        const status = await shopperApi.exitStatus(controller.signal);
        if (status.state === "paid" && paidJustNow(status.receipt)) {
          setCheck(status.notice ?? null);
          succeed(status);
          return;
        }
      } catch (error) {
        if (isAbort(error)) return;
        // Whatever it was, the exit code below meets it again and says what it means.
      }
      try {
        setCode((await shopperApi.exitToken(controller.signal)).token);
      } catch (error) {
        if (isAbort(error)) return;
        const way = wayOn(error);
        if (way) {
          setView(way);
          return;
        }
        // Anything else (the network): on as before, the QR view asks for a code again.
        log.warn("Could not get an exit code", error);
      }
      // The face check has SHOPPER_TIMING.faceVerifyWaitMs; past it the QR code, whatever the server is doing.
      const wait = new AbortController();
      const giveUp = setTimeout(() => wait.abort(), SHOPPER_TIMING.faceVerifyWaitMs);
      const stop = () => wait.abort();
      controller.signal.addEventListener("abort", stop, { once: true });
      try {
        const answer = await shopperApi.faceVerify(id, wait.signal);
        if (answer.status === "ok") void pay();
        else setView({ kind: "qr" });
      } catch (error) {
        if (!controller.signal.aborted) setView({ kind: "qr" });
        else if (!isAbort(error)) log.warn("The face check failed", error);
      } finally {
        clearTimeout(giveUp);
        controller.signal.removeEventListener("abort", stop);
      }
    })();
    return () => controller.abort();
  }, [pay, succeed]);

  // The QR view: a fresh exit code, and the visit's state, until the gate has been passed.
  useEffect(() => {
    if (view.kind !== "qr") return;
    const controller = new AbortController();
    const fetchCode = () =>
      shopperApi.exitToken(controller.signal).then(
        (answer) => setCode(answer.token),
        (error: unknown) => {
          if (!isAbort(error)) log.warn("Could not get an exit code", error);
        },
      );
    const poll = () =>
      shopperApi.exitStatus(controller.signal).then(
        (status) => {
          setCheck(status.notice ?? null);
          if (status.state === "paid" || status.state === "empty") succeed(status);
          // The gate refused the code for want of a card: this QR code cannot open it until one is added.
          else if (status.needs_card) setView({ kind: "card", text: sv.exit.needsCard });
          // The gate refused the code because the vouchers pay the whole cart: back to the cart for more goods.
          else if (status.vouchers_cover_cart) setView({ kind: "vouchers", text: sv.exit.vouchersCover });
          else if (status.state === "declined") setNote(sv.exit.declined);
          else if (status.state === "pending") setNote(sv.exit.pending);
        },
        (error: unknown) => {
          // Polling errors are only logged (spec §8).
          if (!isAbort(error)) log.warn("Could not read the exit status", error);
        },
      );
    void fetchCode();
    const refresh = setInterval(fetchCode, TOKEN_REFRESH_MS);
    const status = setInterval(poll, STATUS_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(refresh);
      clearInterval(status);
    };
  }, [view.kind, succeed]);

  // Success: back to the start after 5 s. The receipt itself says whether it was e-mailed (receipt.emailed).
  useEffect(() => {
    if (view.kind !== "success") return;
    const timer = setTimeout(
      () => void navigate("/customer", { replace: true }),
      SHOPPER_TIMING.afterCheckoutRedirectMs,
    );
    // The gate picks a visit for a spot check just after the payment is recorded: the poll that saw the
    // payment may have come a moment before it, so look once more for the notice.
    const controller = new AbortController();
    const again = setTimeout(() => {
      shopperApi.exitStatus(controller.signal).then(
        (status) => setCheck(status.notice ?? null),
        () => {},
      );
    }, NOTICE_RECHECK_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(again);
      controller.abort();
    };
  }, [view.kind, navigate]);

  if (view.kind === "verifying") {
    return (
      <PageShell>
        <div className="flex flex-1 flex-col items-center justify-center gap-4 text-center">
          <ScanFace aria-hidden="true" className="size-16 animate-pulse text-primary" />
          <h1 className="text-2xl font-bold">{sv.exit.verifyingTitle}</h1>
          <p className="text-muted-foreground">{sv.exit.verifyingText}</p>
        </div>
      </PageShell>
    );
  }
  if (view.kind === "paying") return <Spinner label={sv.exit.paying} className="min-h-svh" />;
  if (view.kind === "card") return <NeedsCardView text={view.text} />;
  if (view.kind === "none") return <NoVisitView text={view.text} />;
  if (view.kind === "vouchers") return <VouchersCoverView text={view.text} />;
  if (view.kind === "signedOut") return <SignedOutView />;
  if (view.kind === "qr") {
    return (
      <PageShell>
        <div className="flex flex-col items-center gap-5 text-center">
          <h1 className="text-2xl font-bold">{sv.exit.qrTitle}</h1>
          {code ? <QrImage value={code} label={sv.exit.qrLabel} /> : <Spinner label={sv.common.loading} />}
          <p className="text-lg">{sv.exit.qrHint}</p>
          <CardNotice text={sv.card.missingAtExit} returnTo="/customer/exit" />
          {note && <Notice text={note} />}
          {check && <Notice text={check} />}
          <button type="button" onClick={() => void pay()} className={buttonClass("ghost")}>
            {sv.exit.fallback}
          </button>
        </div>
      </PageShell>
    );
  }
  if (view.kind === "success") {
    return (
      <PageShell>
        <div className="flex flex-col items-center gap-4 text-center">
          <CircleCheck aria-hidden="true" className="size-16 text-success" />
          <h1 className="text-2xl font-bold">{view.receipt ? sv.exit.successTitle : sv.exit.emptyTitle}</h1>
          <p className="text-muted-foreground">{view.receipt ? sv.exit.successText : sv.exit.emptyText}</p>
          {check && <Notice text={check} />}
          {view.receipt && <ReceiptCard receipt={view.receipt} />}
          <p role="status" className="text-sm text-muted-foreground">
            {sv.exit.returning}
          </p>
        </div>
      </PageShell>
    );
  }
  return (
    <PageShell>
      <div role="alert" className="flex flex-col items-center gap-4 text-center">
        <TriangleAlert aria-hidden="true" className="size-16 text-destructive" />
        <h1 className="text-2xl font-bold">{sv.exit.errorTitle}</h1>
        <p className="text-muted-foreground">{sv.exit.errorText}</p>
        {view.detail && <p className="font-medium">{view.detail}</p>}
        <CardNotice text={sv.card.missingAtExit} returnTo="/customer/exit" />
        <button type="button" onClick={() => window.location.reload()} className={buttonClass("primary")}>
          {sv.common.tryAgain}
        </button>
      </div>
    </PageShell>
  );
}
