import { SHOPPER_TIMING } from "@glide/contracts/shopper";
import { ScanFace, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { QrImage } from "../components/qr-image.tsx";
import { Spinner } from "../components/spinner.tsx";
import { usePublicStore } from "../landing/use-public-store.ts";
import { messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { localDeadline } from "../lib/clock.ts";
import { isMobileDevice } from "../lib/device.ts";
import { entryStore, tokenStore } from "../lib/storage.ts";
import { sv } from "../sv.ts";
import { PayUnpaid } from "../unpaid/pay-unpaid.tsx";
import { DevLoginButton } from "./dev-login-button.tsx";
import { type LoginStep, LoginSteps } from "./login-steps.tsx";
import { type BankIdState, useBankIdSignIn } from "./use-bankid-sign-in.ts";

const mobile = isMobileDevice();

function BankIdPanel({ state }: { state: BankIdState }) {
  if (state.phase === "starting" || state.phase === "idle") return <Spinner label={sv.login.starting} />;
  if (state.phase !== "pending" || !state.order) return null;
  const message = state.message ?? sv.login.waiting;
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      {state.appLink ? (
        <>
          <a href={state.appLink} className={buttonClass("primary")}>
            <Smartphone aria-hidden="true" className="size-5" />
            {sv.login.openApp}
          </a>
          <p className="text-sm text-muted-foreground">{sv.login.openAppHint}</p>
        </>
      ) : (
        <>
          {state.qrData ? (
            <QrImage value={state.qrData} label={sv.login.qrLabel} />
          ) : (
            <div
              role="img"
              aria-label={sv.login.qrLabel}
              aria-busy="true"
              className="size-[272px] rounded-2xl bg-muted"
            />
          )}
          <p className="text-muted-foreground">{sv.login.qrHint}</p>
        </>
      )}
      <p role="status" className="text-base font-medium">
        {message}
      </p>
    </div>
  );
}

/** /customer/login?store_id=: BankID, then the entry session ("face"), then on to the entry QR (spec §2 Login). */
export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const storeParam = params.get("store_id");
  const lookup = usePublicStore(storeParam, sv.login.errors.session);
  const store = lookup.state === "found" ? lookup.store : null;
  const [step, setStep] = useState<LoginStep>("bankid");
  const [error, setError] = useState<string | null>(null);
  /** The server's words when it refuses the entry code for a visit left unpaid; "Betala nu" pays it. */
  const [unpaid, setUnpaid] = useState<string | null>(null);

  async function createSession() {
    if (!store) return;
    setStep("face");
    setError(null);
    setUnpaid(null);
    try {
      const { entry, serverDate } = await shopperApi.createEntry(store.id);
      entryStore.save({ ...entry, deadline: localDeadline(entry.expires_at, serverDate) });
      setStep("complete");
    } catch (failure) {
      if (failure instanceof ShopperApiError && failure.code === "no_payment_method") {
        // Signed in, but the door asks for a card first: the entry QR page says so and asks again after.
        entryStore.awaitCode(store.id);
        void navigate("/customer/qr-entry");
        return;
      }
      setStep("bankid");
      if (failure instanceof ShopperApiError && failure.code === "unpaid_visit")
        setUnpaid(failure.detail ?? sv.unpaid.intro);
      else setError(messageOf(failure, sv.login.errors.session));
    }
  }

  const bankid = useBankIdSignIn({
    storeParam,
    enabled: store?.is_active === true,
    mobile,
    onSignedIn: () => void createSession(),
  });

  useEffect(() => {
    if (step !== "complete") return;
    const timer = setTimeout(() => void navigate("/customer/qr-entry"), SHOPPER_TIMING.afterLoginRedirectMs);
    return () => clearTimeout(timer);
  }, [step, navigate]);

  async function devLogin(): Promise<void> {
    setError(null);
    try {
      const tokens = await shopperApi.devLogin();
      bankid.stop();
      tokenStore.save(tokens);
      await createSession();
    } catch {
      setError(sv.login.errors.devLogin);
    }
  }

  let problem: string | null = error ?? bankid.state.error;
  if (!storeParam) problem = sv.login.errors.noStore;
  else if (lookup.state === "failed") problem = lookup.message;
  else if (store && !store.is_active) problem = sv.login.storeClosed;
  const ready = Boolean(store?.is_active);
  const finished = bankid.state.phase === "failed" || bankid.state.phase === "done";

  function retry() {
    setError(null);
    bankid.restart();
  }

  return (
    <PageShell>
      <section className="flex flex-col gap-2 pt-4">
        <h1 className="text-3xl font-extrabold tracking-tight">{sv.login.title}</h1>
        <p className="text-lg text-muted-foreground">{store ? sv.login.introStore(store.name) : sv.login.intro}</p>
      </section>

      <LoginSteps current={step} />

      <section className="flex flex-col gap-4 rounded-2xl border bg-card p-5">
        {step === "bankid" && unpaid && (
          <>
            <h2 className="text-xl font-bold">{sv.unpaid.title}</h2>
            <Message tone="error">{unpaid}</Message>
            {/* Paid: the entry code is asked for again, and the sign-in goes on as usual. */}
            <PayUnpaid onPaid={() => void createSession()} />
          </>
        )}
        {step === "bankid" && !unpaid && (
          <>
            {problem && <Message tone="error">{problem}</Message>}
            {lookup.state === "loading" && <Spinner label={sv.common.loading} />}
            {ready && !finished && <BankIdPanel state={bankid.state} />}
            {ready && finished && (
              <button type="button" className={buttonClass("primary")} onClick={retry}>
                {sv.common.tryAgain}
              </button>
            )}
          </>
        )}
        {step === "face" && (
          <div role="status" className="flex flex-col items-center gap-3 py-6 text-center">
            <ScanFace aria-hidden="true" className="size-16 animate-pulse text-primary" />
            <h2 className="text-xl font-bold">{sv.login.faceTitle}</h2>
            <p className="text-muted-foreground">{sv.login.faceText}</p>
          </div>
        )}
        {step === "complete" && (
          <div className="flex flex-col items-center gap-2 py-6 text-center">
            <Message tone="success">{sv.login.completeTitle}</Message>
            <p className="text-muted-foreground">{sv.login.completeText}</p>
          </div>
        )}
      </section>

      {step === "bankid" && (
        <div className="mt-auto flex flex-col gap-3">
          <Link
            to={storeParam ? `/customer?store_id=${encodeURIComponent(storeParam)}` : "/customer"}
            className={buttonClass("secondary")}
          >
            {storeParam ? sv.common.cancel : sv.common.backToStart}
          </Link>
          {ready && <DevLoginButton onLogin={devLogin} />}
        </div>
      )}
    </PageShell>
  );
}
