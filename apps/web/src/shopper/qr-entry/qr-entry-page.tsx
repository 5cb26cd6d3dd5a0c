import { encodeEntryQr, SHOPPER_TIMING } from "@glide/contracts/shopper";
import { CreditCard, DoorOpen, Timer } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { CardNotice } from "../card/card-notice.tsx";
import { cardPageFor } from "../card/return-path.ts";
import { buttonClass } from "../components/button.ts";
import { Message } from "../components/message.tsx";
import { PageShell } from "../components/page-shell.tsx";
import { QrImage } from "../components/qr-image.tsx";
import { Spinner } from "../components/spinner.tsx";
import { messageOf, ShopperApiError, shopperApi } from "../lib/client.ts";
import { formatMinutesSeconds, localDeadline } from "../lib/clock.ts";
import { entryStore, type StoredEntry, tokenStore } from "../lib/storage.ts";
import { useDevTools } from "../lib/use-dev-tools.ts";
import { usePoll } from "../lib/use-poll.ts";
import { sv } from "../sv.ts";
import { useSecondsLeft } from "./use-seconds-left.ts";

type View = "waiting" | "success" | "error" | "timeout" | "creating" | "card" | "refused";

const HERE = "/customer/qr-entry";

/**
 * A signed-in shopper with a store but no code yet: the door asked for a card
 * first (the login page sent them here), or they are back from adding one.
 * The code is asked for here; the server's refusal is kept to be shown.
 */
function useCodeForStore(storeId: string | null, onCode: (entry: StoredEntry) => void) {
  const [refusal, setRefusal] = useState<{ card: boolean; text: string } | null>(null);
  useEffect(() => {
    if (!storeId) return;
    let live = true;
    shopperApi.createEntry(storeId).then(
      ({ entry, serverDate }) => {
        if (!live) return;
        const stored = { ...entry, deadline: localDeadline(entry.expires_at, serverDate) };
        entryStore.save(stored);
        onCode(stored);
      },
      (failure: unknown) => {
        if (!live) return;
        const card = failure instanceof ShopperApiError && failure.code === "no_payment_method";
        setRefusal({ card, text: messageOf(failure, card ? sv.entry.needsCard : sv.login.errors.session) });
      },
    );
    return () => {
      live = false;
    };
  }, [storeId, onCode]);
  return refusal;
}

/** Why the test button could not open the door, in Swedish. */
function doorFailure(error: unknown): string {
  if (!(error instanceof ShopperApiError)) return sv.entry.errors.doorNetwork;
  // That answer's detail is written for door scanners (DEV_TOOLS went off), not for shoppers.
  if (error.code === "device_key_required") return sv.entry.errors.door;
  return error.detail ?? sv.entry.errors.door;
}

function TestDoorButton({ entry, onOpened }: { entry: StoredEntry; onOpened: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const devTools = useDevTools();

  async function open() {
    setBusy(true);
    setError(null);
    try {
      const answer = await shopperApi.openDoorForTest(entry);
      if (answer.door_opened) onOpened();
      else setError(sv.entry.errors.door);
    } catch (failure) {
      setError(doorFailure(failure));
    } finally {
      setBusy(false);
    }
  }

  if (!devTools) return null;
  return (
    <section aria-label={sv.common.devTools} className="flex flex-col gap-3">
      {error && <Message tone="error">{error}</Message>}
      <button type="button" className={buttonClass("dev")} disabled={busy} onClick={() => void open()}>
        <DoorOpen aria-hidden="true" className="size-5" />
        {sv.entry.testDoor}
      </button>
    </section>
  );
}

/** /customer/qr-entry: the QR code the door scanner reads, valid until the server's expires_at (spec §2 Entry QR). */
export function QrEntryPage() {
  const navigate = useNavigate();
  const [entry, setEntry] = useState(() => entryStore.read());
  const [codeFor] = useState(() => (entry || !tokenStore.access() ? null : entryStore.storeId()));
  const refusal = useCodeForStore(codeFor, setEntry);
  const [opened, setOpened] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const secondsLeft = useSecondsLeft(entry?.deadline ?? null);

  let view: View = "waiting";
  if (!entry) {
    if (!codeFor) view = "error";
    else if (!refusal) view = "creating";
    else view = refusal.card ? "card" : "refused";
  } else if (opened) view = "success";
  else if (secondsLeft <= 0) view = "timeout";

  usePoll(
    async (signal) => {
      if (!entry) return;
      const { door_opened } = await shopperApi.doorStatus(entry.session_id, signal);
      if (door_opened && !signal.aborted) setOpened(true);
    },
    SHOPPER_TIMING.doorPollMs,
    view === "waiting",
  );

  useEffect(() => {
    if (view !== "success") return;
    const timer = setTimeout(() => void navigate("/customer/shop"), SHOPPER_TIMING.afterDoorRedirectMs);
    return () => clearTimeout(timer);
  }, [view, navigate]);

  /** Cancel and restart: the server revokes the code, and the shopper starts over from the store's page. */
  async function startOver() {
    setLeaving(true);
    const storeId = entryStore.storeId();
    if (entry) {
      try {
        await shopperApi.cancelEntry(entry.session_id);
      } catch (failure) {
        if (failure instanceof ShopperApiError && failure.code === "door_opened") {
          // The scanner was quicker than the button: the visit has begun.
          setLeaving(false);
          setOpened(true);
          return;
        }
        // Otherwise leave anyway: the next code the shopper asks for revokes this one on the server.
      }
    }
    entryStore.clear();
    void navigate(storeId ? `/customer?store_id=${encodeURIComponent(storeId)}` : "/customer");
  }

  return (
    <PageShell>
      <section className="flex flex-col gap-2 pt-4">
        <h1 className="text-3xl font-extrabold tracking-tight">{sv.entry.title}</h1>
        {view === "waiting" && <p className="text-lg text-muted-foreground">{sv.entry.instructions}</p>}
      </section>

      {view === "waiting" && entry && (
        <>
          <div className="flex flex-col items-center gap-4">
            <CardNotice text={sv.card.missing} returnTo={HERE} />
            <QrImage value={encodeEntryQr(entry)} label={sv.entry.qrLabel} />
            <p className="flex items-center gap-2 text-lg">
              <Timer aria-hidden="true" className="size-5 text-muted-foreground" />
              <span>{sv.entry.validFor}</span>
              <span role="timer" className="font-mono text-2xl font-bold tabular-nums">
                {formatMinutesSeconds(secondsLeft)}
              </span>
            </p>
          </div>
          <div className="mt-auto flex flex-col gap-3">
            <button
              type="button"
              className={buttonClass("secondary")}
              disabled={leaving}
              onClick={() => void startOver()}
            >
              {sv.common.cancel}
            </button>
            <TestDoorButton entry={entry} onOpened={() => setOpened(true)} />
          </div>
        </>
      )}

      {view === "success" && (
        <div className="flex flex-1 flex-col items-center justify-center gap-4 text-center">
          <DoorOpen aria-hidden="true" className="size-20 text-success" />
          <Message tone="success">{sv.entry.success}</Message>
        </div>
      )}

      {view === "timeout" && (
        <div className="flex flex-col gap-4">
          <Message tone="error">{sv.entry.expired}</Message>
          <button type="button" className={buttonClass("primary")} disabled={leaving} onClick={() => void startOver()}>
            {sv.entry.restart}
          </button>
        </div>
      )}

      {view === "creating" && <Spinner label={sv.entry.creating} />}

      {view === "card" && refusal && (
        <section aria-labelledby="card-title" className="flex flex-col gap-4">
          <h2 id="card-title" className="flex items-center gap-2 text-xl font-bold">
            <CreditCard aria-hidden="true" className="size-6 shrink-0 text-primary" />
            {sv.entry.cardTitle}
          </h2>
          <p className="text-lg">{refusal.text}</p>
          <Link to={cardPageFor(HERE)} className={buttonClass("primary")}>
            {sv.card.toCard}
          </Link>
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={leaving}
            onClick={() => void startOver()}
          >
            {sv.common.cancel}
          </button>
        </section>
      )}

      {view === "refused" && refusal && (
        <div className="flex flex-col gap-4">
          <Message tone="error">{refusal.text}</Message>
          <button type="button" className={buttonClass("primary")} disabled={leaving} onClick={() => void startOver()}>
            {sv.common.backToStart}
          </button>
        </div>
      )}

      {view === "error" && (
        <div className="flex flex-col gap-4">
          <Message tone="error">{sv.entry.missing}</Message>
          <button type="button" className={buttonClass("primary")} disabled={leaving} onClick={() => void startOver()}>
            {sv.common.backToStart}
          </button>
        </div>
      )}
    </PageShell>
  );
}
