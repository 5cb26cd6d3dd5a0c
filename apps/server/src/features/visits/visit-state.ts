import { VISIT_STATES, type VisitState } from "@glide/contracts";
import { AppError } from "../../platform/errors.ts";

export { VISIT_STATES, type VisitState };

/**
 * A visit's state machine: every state a visit can be in, every event that
 * can happen to it, and what each event does in each state. Services ask
 * `transition` before they change a visit, and write only the state it
 * answers, in the transaction that holds the visit's row lock. The table
 * is in docs/sessions.md ("A visit's states").
 */

export type VisitEvent =
  /** The door scanner read the visit's entry code. */
  | "door"
  /** The shopper asked for an entry code to a store where this visit is open (a way back in, the same visit). */
  | "entry_again"
  /** The shopper dropped the entry code ("Avbryt"), or a newer one replaced it. */
  | "cancel"
  /** A scan, a quantity change, a removal, or the recognition worker. */
  | "cart_change"
  /** The shopper's checkout (at the gate, after the face check or from the phone) begins. */
  | "checkout"
  /** Staff charge the card on file for a visit left unpaid. */
  | "staff_charge"
  /** The provider's answers to a charge. */
  | "paid"
  | "declined"
  | "no_answer"
  /** The abandoned-visit sweep found the visit quiet for the store's abandon_after_minutes. */
  | "idle"
  /** Staff write the goods of a visit left unpaid off, with a reason. */
  | "write_off"
  /** Staff open the exit gate for a shopper inside who cannot pay (no card, a card declined): let out unpaid. */
  | "let_out";

/** What the visit holds and whether its shopper is known to be gone (the gate opened, or the sweep closed it). */
export type VisitFacts = { hasGoods: boolean; gone: boolean };

export type Transition =
  /** The event is allowed; the visit moves to `to` (possibly where it is). `charge`: make the order and charge it. */
  { ok: true; to: VisitState; charge?: true; wait?: true } | { ok: false; error: AppError };

const refuse = (status: number, code: string, detail: string): Transition => ({
  ok: false,
  error: new AppError(status, code, detail),
});
const to = (state: VisitState): Transition => ({ ok: true, to: state });

/** Swedish for the shopper's phone, English for the console (staff events). */
const notEntered = () =>
  refuse(409, "not_entered", "Du har inte gått in i butiken än. Visa QR-koden vid dörren först.");
const paying = () =>
  refuse(409, "payment_in_progress", "Betalningen pågår. Vänta tills den är klar innan du ändrar kundvagnen.");
const ended = () => refuse(409, "checked_out", "Besöket är avslutat. Starta ett nytt besök för att handla.");
const leftUnpaid = () =>
  refuse(409, "visit_left_unpaid", "Besöket avslutades utan betalning. Betala det i appen eller kontakta butiken.");
const codeUsed = () => refuse(409, "token_used", "QR-koden är redan använd.");
const codeInvalid = () => refuse(403, "invalid_token", "Ogiltig QR-kod.");
const notUnpaid = () =>
  refuse(409, "not_left_unpaid", "Only a visit left unpaid can be charged or written off by staff");
/** Staff can let out only a shopper who is inside the store. */
const notInside = () => refuse(409, "not_in_store", "Only a shopper inside the store can be let out");
/** A provider's answer for a visit no charge is under way for (a late answer the state machine ignores). */
const notCharging = () => refuse(409, "not_charging", "No charge of this visit is under way");

/** Where a checkout's charge goes when the card is declined: back to the shop, or (the shopper has gone) unpaid. */
const afterDecline = (facts: VisitFacts): Transition => to(facts.gone ? "left_unpaid" : "in_store");

/** Every (state, event) pair: the answer, or the refusal with the words the caller hears. */
export function transition(state: VisitState, event: VisitEvent, facts: VisitFacts): Transition {
  switch (state) {
    case "entering":
      switch (event) {
        case "door":
          return to("in_store");
        case "cancel":
          return to("cancelled");
        case "idle":
          return to("entering");
        case "staff_charge":
        case "write_off":
          return notUnpaid();
        case "let_out":
          return notInside();
        default:
          return notEntered();
      }
    case "in_store":
      switch (event) {
        // A way back in for the same visit: the door opens again, nothing else changes.
        case "door":
        case "entry_again":
        case "cart_change":
        case "cancel":
          return to("in_store");
        case "checkout":
          return facts.hasGoods ? { ok: true, to: "charging", charge: true } : to("ended_empty");
        case "idle":
          return to(facts.hasGoods ? "left_unpaid" : "ended_empty");
        // The gate opens for a shopper who cannot pay: goods are owed (staff charge or write off), an empty cart ends.
        case "let_out":
          return to(facts.hasGoods ? "left_unpaid" : "ended_empty");
        case "staff_charge":
        case "write_off":
          return refuse(409, "visit_open", "The shopper is still in the store: the visit is paid at the exit");
        default:
          return notCharging();
      }
    case "charging":
      switch (event) {
        case "cart_change":
          return paying();
        // Another request for the same charge waits for the one under way (or takes it over after its lease).
        case "checkout":
        case "staff_charge":
          return { ok: true, to: "charging", wait: true };
        case "paid":
          return to("paid");
        case "declined":
          return afterDecline(facts);
        // No answer: the same idempotency key settles it later; the cart stays frozen until then.
        case "no_answer":
        case "idle":
          return to("charging");
        case "door":
        case "entry_again":
          return refuse(409, "payment_in_progress", "Din förra betalning pågår fortfarande. Försök igen om en stund.");
        case "cancel":
          return codeUsed();
        case "write_off":
        case "let_out":
          return refuse(409, "payment_in_progress", "A charge of this visit is under way");
      }
      return notCharging();
    case "left_unpaid":
      switch (event) {
        // The shopper pays it from the phone, or staff charge the card on file: the same exactly-once path.
        case "checkout":
        case "staff_charge":
          return facts.hasGoods ? { ok: true, to: "charging", charge: true } : to("ended_empty");
        case "write_off":
          return to("written_off");
        case "idle":
          return to("left_unpaid");
        case "door":
        case "cancel":
          return codeUsed();
        case "cart_change":
        case "entry_again":
          return leftUnpaid();
        case "let_out":
          return notInside();
        default:
          return notCharging();
      }
    case "paid":
    case "ended_empty":
    case "written_off":
      switch (event) {
        // Asked again, a closed visit answers as it ended.
        case "checkout":
        case "idle":
          return to(state);
        case "door":
        case "cancel":
          return codeUsed();
        case "staff_charge":
        case "write_off":
          return notUnpaid();
        case "cart_change":
        case "entry_again":
          return ended();
        case "let_out":
          return notInside();
        default:
          return notCharging();
      }
    case "cancelled":
      switch (event) {
        case "cancel":
        case "idle":
          return to("cancelled");
        case "door":
          return codeInvalid();
        case "staff_charge":
        case "write_off":
          return notUnpaid();
        case "let_out":
          return notInside();
        default:
          return notEntered();
      }
  }
}

/** The transition, or its refusal thrown as the error the caller's client hears. */
export function mustTransition(state: VisitState, event: VisitEvent, facts: VisitFacts) {
  const next = transition(state, event, facts);
  if (!next.ok) throw next.error;
  return next;
}

/** States a checkout settles: open with goods, or left with goods and no payment. */
export const OWING_STATES: readonly VisitState[] = ["in_store", "charging", "left_unpaid"];
