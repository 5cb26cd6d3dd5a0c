import { describe, expect, it } from "vitest";
import { transition, VISIT_STATES, type VisitEvent, type VisitState } from "./visit-state.ts";

/**
 * The state machine as a table: every (state, event) pair and what it
 * answers, a state (with `charge` or `wait` where it says so) or a refusal's
 * status and code. docs/sessions.md shows the same table to people.
 */
type Answer = VisitState | `${VisitState}+charge` | `${VisitState}+wait` | `${number} ${string}`;
type Facts = { hasGoods: boolean; gone: boolean };

const EVENTS: VisitEvent[] = [
  "door",
  "entry_again",
  "cancel",
  "cart_change",
  "checkout",
  "staff_charge",
  "paid",
  "declined",
  "no_answer",
  "idle",
  "write_off",
  "let_out",
];

/** With goods in the cart, the shopper still inside. */
const TABLE: Record<VisitState, Record<VisitEvent, Answer>> = {
  entering: {
    door: "in_store",
    entry_again: "409 not_entered",
    cancel: "cancelled",
    cart_change: "409 not_entered",
    checkout: "409 not_entered",
    staff_charge: "409 not_left_unpaid",
    paid: "409 not_entered",
    declined: "409 not_entered",
    no_answer: "409 not_entered",
    idle: "entering",
    write_off: "409 not_left_unpaid",
    let_out: "409 not_in_store",
  },
  in_store: {
    door: "in_store",
    entry_again: "in_store",
    cancel: "in_store",
    cart_change: "in_store",
    checkout: "charging+charge",
    staff_charge: "409 visit_open",
    paid: "409 not_charging",
    declined: "409 not_charging",
    no_answer: "409 not_charging",
    idle: "left_unpaid",
    write_off: "409 visit_open",
    let_out: "left_unpaid",
  },
  charging: {
    door: "409 payment_in_progress",
    entry_again: "409 payment_in_progress",
    cancel: "409 token_used",
    cart_change: "409 payment_in_progress",
    checkout: "charging+wait",
    staff_charge: "charging+wait",
    paid: "paid",
    declined: "in_store",
    no_answer: "charging",
    idle: "charging",
    write_off: "409 payment_in_progress",
    let_out: "409 payment_in_progress",
  },
  paid: {
    door: "409 token_used",
    entry_again: "409 checked_out",
    cancel: "409 token_used",
    cart_change: "409 checked_out",
    checkout: "paid",
    staff_charge: "409 not_left_unpaid",
    paid: "409 not_charging",
    declined: "409 not_charging",
    no_answer: "409 not_charging",
    idle: "paid",
    write_off: "409 not_left_unpaid",
    let_out: "409 not_in_store",
  },
  ended_empty: {
    door: "409 token_used",
    entry_again: "409 checked_out",
    cancel: "409 token_used",
    cart_change: "409 checked_out",
    checkout: "ended_empty",
    staff_charge: "409 not_left_unpaid",
    paid: "409 not_charging",
    declined: "409 not_charging",
    no_answer: "409 not_charging",
    idle: "ended_empty",
    write_off: "409 not_left_unpaid",
    let_out: "409 not_in_store",
  },
  left_unpaid: {
    door: "409 token_used",
    entry_again: "409 visit_left_unpaid",
    cancel: "409 token_used",
    cart_change: "409 visit_left_unpaid",
    checkout: "charging+charge",
    staff_charge: "charging+charge",
    paid: "409 not_charging",
    declined: "409 not_charging",
    no_answer: "409 not_charging",
    idle: "left_unpaid",
    write_off: "written_off",
    let_out: "409 not_in_store",
  },
  written_off: {
    door: "409 token_used",
    entry_again: "409 checked_out",
    cancel: "409 token_used",
    cart_change: "409 checked_out",
    checkout: "written_off",
    staff_charge: "409 not_left_unpaid",
    paid: "409 not_charging",
    declined: "409 not_charging",
    no_answer: "409 not_charging",
    idle: "written_off",
    write_off: "409 not_left_unpaid",
    let_out: "409 not_in_store",
  },
  cancelled: {
    door: "403 invalid_token",
    entry_again: "409 not_entered",
    cancel: "cancelled",
    cart_change: "409 not_entered",
    checkout: "409 not_entered",
    staff_charge: "409 not_left_unpaid",
    paid: "409 not_entered",
    declined: "409 not_entered",
    no_answer: "409 not_entered",
    idle: "cancelled",
    write_off: "409 not_left_unpaid",
    let_out: "409 not_in_store",
  },
};

function answer(state: VisitState, event: VisitEvent, facts: Facts): Answer {
  const next = transition(state, event, facts);
  if (!next.ok) return `${next.error.status} ${next.error.code}`;
  if (next.charge) return `${next.to}+charge`;
  if (next.wait) return `${next.to}+wait`;
  return next.to;
}

describe("the visit's state machine", () => {
  it("answers every state and event as the table says (goods in the cart, the shopper inside)", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...VISIT_STATES].sort());
    for (const state of VISIT_STATES)
      for (const event of EVENTS)
        expect(answer(state, event, { hasGoods: true, gone: false }), `${state} × ${event}`).toBe(TABLE[state][event]);
  });

  it("ends an empty visit instead of charging it, at the exit and when it goes quiet", () => {
    const empty = { hasGoods: false, gone: false };
    expect(answer("in_store", "checkout", empty)).toBe("ended_empty");
    expect(answer("in_store", "idle", empty)).toBe("ended_empty");
    expect(answer("left_unpaid", "checkout", empty)).toBe("ended_empty");
    expect(answer("left_unpaid", "staff_charge", empty)).toBe("ended_empty");
    // Let out with nothing in the cart: nothing is owed, so the visit simply ends.
    expect(answer("in_store", "let_out", { hasGoods: false, gone: true })).toBe("ended_empty");
  });

  it("sends a declined charge back to the shop only while its shopper is there", () => {
    expect(answer("charging", "declined", { hasGoods: true, gone: false })).toBe("in_store");
    expect(answer("charging", "declined", { hasGoods: true, gone: true })).toBe("left_unpaid");
    // Gone or not, a charge with no answer stays under way and the cart stays frozen.
    expect(answer("charging", "no_answer", { hasGoods: true, gone: true })).toBe("charging");
    expect(answer("charging", "cart_change", { hasGoods: true, gone: false })).toBe("409 payment_in_progress");
  });

  it("tells the shopper in Swedish, and staff in English", () => {
    const words = (state: VisitState, event: VisitEvent) => {
      const next = transition(state, event, { hasGoods: true, gone: false });
      return next.ok ? null : next.error.message;
    };
    expect(words("charging", "cart_change")).toBe(
      "Betalningen pågår. Vänta tills den är klar innan du ändrar kundvagnen.",
    );
    expect(words("left_unpaid", "cart_change")).toBe(
      "Besöket avslutades utan betalning. Betala det i appen eller kontakta butiken.",
    );
    expect(words("charging", "entry_again")).toBe("Din förra betalning pågår fortfarande. Försök igen om en stund.");
    expect(words("paid", "cart_change")).toBe("Besöket är avslutat. Starta ett nytt besök för att handla.");
    expect(words("entering", "cart_change")).toBe("Du har inte gått in i butiken än. Visa QR-koden vid dörren först.");
    expect(words("in_store", "write_off")).toBe("The shopper is still in the store: the visit is paid at the exit");
    expect(words("paid", "staff_charge")).toBe("Only a visit left unpaid can be charged or written off by staff");
    expect(words("charging", "write_off")).toBe("A charge of this visit is under way");
    expect(words("charging", "let_out")).toBe("A charge of this visit is under way");
    expect(words("paid", "let_out")).toBe("Only a shopper inside the store can be let out");
    expect(words("paid", "door")).toBe("QR-koden är redan använd.");
    expect(words("cancelled", "door")).toBe("Ogiltig QR-kod.");
    expect(words("in_store", "paid")).toBe("No charge of this visit is under way");
    expect(words("charging", "door")).toBe("Din förra betalning pågår fortfarande. Försök igen om en stund.");
  });
});
