/**
 * Stripe's test cards that the simulator knows, by number and by the
 * `pm_card_*` ids test mode accepts in place of a PaymentMethod.
 *
 * Saving a card (SetupIntent, attach) checks only that the card exists: the
 * decline cards are saved and decline when charged, so a shopper can keep a
 * card on file that fails at the exit. (Stripe itself already declines
 * 4000 0000 0000 0002 and 9995 when saving; its 4000 0000 0000 0341 behaves as
 * they do here.) 0069 is refused when saved as when charged, and 3184 always
 * asks for 3-D Secure.
 */
export type CardOutcome =
  | { kind: "approve" }
  | { kind: "decline"; code: string; declineCode: string; message: string; atSetup: boolean }
  | { kind: "authenticate" };

export type TestCard = {
  number: string;
  brand: "visa" | "mastercard";
  alias: string;
  outcome: CardOutcome;
  /** Shown on the card page. */
  label: string;
};

const declined = "Your card was declined.";

export const TEST_CARDS: TestCard[] = [
  {
    number: "4242424242424242",
    brand: "visa",
    alias: "pm_card_visa",
    outcome: { kind: "approve" },
    label: "Visa, godkänns",
  },
  {
    number: "5555555555554444",
    brand: "mastercard",
    alias: "pm_card_mastercard",
    outcome: { kind: "approve" },
    label: "Mastercard, godkänns",
  },
  {
    number: "4000000000000002",
    brand: "visa",
    alias: "pm_card_chargeDeclined",
    outcome: {
      kind: "decline",
      code: "card_declined",
      declineCode: "generic_decline",
      message: declined,
      atSetup: false,
    },
    label: "Nekas vid betalning",
  },
  {
    number: "4000000000009995",
    brand: "visa",
    alias: "pm_card_chargeDeclinedInsufficientFunds",
    outcome: {
      kind: "decline",
      code: "card_declined",
      declineCode: "insufficient_funds",
      message: "Your card has insufficient funds.",
      atSetup: false,
    },
    label: "Nekas vid betalning: täckning saknas",
  },
  {
    number: "4000000000000341",
    brand: "visa",
    alias: "pm_card_chargeCustomerFail",
    outcome: {
      kind: "decline",
      code: "card_declined",
      declineCode: "generic_decline",
      message: declined,
      atSetup: false,
    },
    label: "Sparas, nekas vid betalning",
  },
  {
    number: "4000000000000069",
    brand: "visa",
    alias: "pm_card_chargeDeclinedExpiredCard",
    outcome: {
      kind: "decline",
      code: "expired_card",
      declineCode: "expired_card",
      message: "Your card has expired.",
      atSetup: true,
    },
    label: "Utgånget kort, nekas direkt",
  },
  {
    number: "4000002760003184",
    brand: "visa",
    alias: "pm_card_authenticationRequired",
    outcome: { kind: "authenticate" },
    label: "Kräver alltid 3D Secure",
  },
];

export const cardByNumber = (number: string) => TEST_CARDS.find((c) => c.number === number);
export const cardByAlias = (alias: string) => TEST_CARDS.find((c) => c.alias === alias);

/** The Luhn check digit: a mistyped number fails it. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
