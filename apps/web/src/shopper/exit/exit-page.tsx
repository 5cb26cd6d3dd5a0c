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
import { isAbort, messageOf, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { forgetVisit, tokenStore } from "../lib/storage.ts";
import { ReceiptCard } from "../receipts/receipt-card.tsx";
import { sv } from "../sv.ts";

/** How long after the payment the page looks once more for a spot-check notice. */
const NOTICE_RECHECK_MS = 1000;

type View =
  | { kind: "verifying" }
  | { kind: "qr" }
  | { kind: "paying" }
  | { kind: "success"; receipt: Receipt | null }
  | { kind: "error"; detail: string | null };

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
      setView({ kind: "error", detail: null });
      return;
    }
    setView({ kind: "paying" });
    try {
      succeed(await shopperApi.checkout(userId.current));
    } catch (error) {
      log.warn("Checkout failed", error);
      setView({ kind: "error", detail: messageOf(error, "") || null });
    }
  }, [succeed]);

  // Verifying: the face check; anything but ok falls back to the QR code (spec §4).
  useEffect(() => {
    const controller = new AbortController();
    const id = userId.current;
    if (!id) {
      setView({ kind: "error", detail: null });
      return;
    }
    shopperApi.faceVerify(id, controller.signal).then(
      (answer) => {
        if (answer.status === "ok") void pay();
        else setView({ kind: "qr" });
      },
      (error: unknown) => {
        if (!isAbort(error)) setView({ kind: "qr" });
      },
    );
    return () => controller.abort();
  }, [pay]);

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

  // Success: say where the receipt was e-mailed, if anywhere; back to the start after 5 s.
  const [emailed, setEmailed] = useState(false);
  useEffect(() => {
    if (view.kind !== "success" || !view.receipt) return;
    shopperApi.profile().then(
      (profile) => setEmailed(profile.email !== null),
      () => setEmailed(false),
    );
  }, [view]);
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
  if (view.kind === "qr") {
    return (
      <PageShell>
        <div className="flex flex-col items-center gap-5 text-center">
          <h1 className="text-2xl font-bold">{sv.exit.qrTitle}</h1>
          {code ? <QrImage value={code} label={sv.exit.qrLabel} /> : <Spinner label={sv.common.loading} />}
          <p className="text-lg">{sv.exit.qrHint}</p>
          <CardNotice text={sv.card.missingAtExit} />
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
          {emailed && <p className="text-sm">{sv.exit.emailed}</p>}
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
        <CardNotice text={sv.card.missingAtExit} />
        <button type="button" onClick={() => window.location.reload()} className={buttonClass("primary")}>
          {sv.common.tryAgain}
        </button>
      </div>
    </PageShell>
  );
}

/** A line the shopper must not miss at the gate: the payment's progress, or a staff check. */
function Notice({ text }: { text: string }) {
  return (
    <p role="status" className="rounded-xl bg-warning-muted px-4 py-3 font-medium text-warning">
      {text}
    </p>
  );
}
