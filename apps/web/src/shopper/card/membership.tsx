import type { Membership } from "@glide/contracts";
import { BadgePercent } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "../components/button.ts";
import { isAbort, messageOf, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";
import { MEMBERSHIP_ANCHOR } from "./return-path.ts";

const longDate = new Intl.DateTimeFormat("sv-SE", { dateStyle: "long" });

/**
 * The chain's membership. Joining is the shopper's consent, so the terms are
 * shown and a box ticked before "Bli medlem" does anything; leaving is asked
 * once more ("Ja, avsluta") and then done at once. Focus follows each change
 * to what now stands, so a screen reader and a thumb are not left on a
 * button that has gone.
 */
export function MembershipSection() {
  const [membership, setMembership] = useState<Membership | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const question = useRef<HTMLParagraphElement>(null);
  const leaveButton = useRef<HTMLButtonElement>(null);
  /** Where focus goes once the change it follows is on screen. */
  const focusNext = useRef<"heading" | "question" | "leave" | null>(null);

  /** Reads the membership: on opening, and again on the shopper's "Försök igen". */
  const load = useCallback((signal?: AbortSignal) => {
    shopperApi.membership(signal).then(
      (answer) => {
        setLoadFailed(false);
        setMembership(answer);
        // Sent here from the cart's "Bli medlem": the section is what the shopper came for.
        if (window.location.hash === `#${MEMBERSHIP_ANCHOR}`) focusNext.current = "heading";
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        log.warn("Could not read the membership", error);
        setLoadFailed(true);
      },
    );
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  useEffect(() => {
    const next = focusNext.current;
    const target = next && { heading, question, leave: leaveButton }[next].current;
    if (!target) return;
    focusNext.current = null;
    target.focus();
    target.scrollIntoView({ block: "nearest" });
  });

  const change = async (member: boolean) => {
    setBusy(true);
    try {
      setMembership(await shopperApi.setMembership(member));
      setNote({ error: false, text: member ? sv.membership.joined : sv.membership.left });
      setConfirming(false);
      setAgreed(false);
      focusNext.current = "heading";
    } catch (error) {
      log.warn("Could not change the membership", error);
      setNote({ error: true, text: messageOf(error, member ? sv.membership.joinFailed : sv.membership.leaveFailed) });
    } finally {
      setBusy(false);
    }
  };

  const ask = (open: boolean) => {
    setConfirming(open);
    setNote(null);
    focusNext.current = open ? "question" : "leave";
  };

  if (!membership && !loadFailed) return null;

  return (
    <section
      id={MEMBERSHIP_ANCHOR}
      aria-labelledby={`${id}-title`}
      className="flex scroll-mt-4 flex-col gap-3 rounded-2xl border bg-card p-4"
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="flex items-center gap-2 text-lg font-bold">
        <BadgePercent aria-hidden="true" className="size-6 text-primary" />
        {sv.membership.title}
      </h2>
      {!membership ? (
        <>
          <p role="alert" className="font-medium text-destructive">
            {sv.membership.loadFailed}
          </p>
          <button type="button" onClick={() => load()} className={buttonClass("secondary")}>
            {sv.common.tryAgain}
          </button>
        </>
      ) : membership.member ? (
        <>
          <p className="font-medium" data-testid="member-since">
            {sv.membership.since(membership.since ? longDate.format(new Date(membership.since)) : "")}
          </p>
          {confirming ? (
            <div className="flex flex-col gap-3 rounded-xl bg-muted p-3">
              <p ref={question} tabIndex={-1} className="font-medium">
                {sv.membership.confirmLeave}
              </p>
              <button
                type="button"
                disabled={busy}
                onClick={() => void change(false)}
                className={buttonClass("primary")}
              >
                {sv.membership.confirmYes}
              </button>
              <button type="button" disabled={busy} onClick={() => ask(false)} className={buttonClass("secondary")}>
                {sv.common.cancel}
              </button>
            </div>
          ) : (
            <button ref={leaveButton} type="button" onClick={() => ask(true)} className={buttonClass("secondary")}>
              {sv.membership.leave}
            </button>
          )}
        </>
      ) : (
        <>
          <p id={`${id}-terms`} className="text-muted-foreground">
            {sv.membership.terms}
          </p>
          <label htmlFor={id} className="flex min-h-12 items-center gap-3 font-medium">
            <input
              id={id}
              type="checkbox"
              checked={agreed}
              disabled={busy}
              onChange={(event) => setAgreed(event.target.checked)}
              aria-describedby={`${id}-terms`}
              className="size-6 shrink-0 accent-[var(--primary)]"
            />
            {sv.membership.consent}
          </label>
          <button
            type="button"
            disabled={!agreed || busy}
            onClick={() => void change(true)}
            className={buttonClass("primary")}
          >
            {sv.membership.join}
          </button>
        </>
      )}
      <p role="status" className={note?.error ? "font-medium text-destructive" : "text-sm text-muted-foreground"}>
        {note?.text}
      </p>
    </section>
  );
}
