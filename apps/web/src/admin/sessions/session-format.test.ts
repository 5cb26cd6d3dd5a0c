import type { SessionEvent } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import {
  campaignText,
  describeEvent,
  discountAmountText,
  discountLineText,
  offerText,
  paidByCard,
  pantLineText,
  voucherLineText,
} from "./session-format.ts";

const event = (
  kind: string,
  detail: Record<string, unknown> | null,
  staff_email: string | null = null,
): SessionEvent => ({
  id: 1,
  kind,
  source: staff_email ? "staff" : "exit_gate",
  staff_email,
  detail,
  at: "2026-11-26T10:00:00Z",
});

describe("the timeline says why the exit gate stayed shut, and who let the shopper out", () => {
  it.each([
    ["no_payment_method", "Exit gate refused: no card on file"],
    ["payment_declined", "Exit gate refused: payment declined by the bank"],
    ["exit_code_used", "Exit gate refused: exit code already used"],
    ["stale_exit_code", "Exit gate refused: exit code of an earlier visit"],
    ["wrong_store", "Exit gate refused: exit code for another store"],
    ["payments_not_configured", "Exit gate refused: payments are not set up"],
    // A code the console does not know yet is still readable.
    ["cart_too_large", "Exit gate refused: cart too large"],
  ])("%s", (code, words) => {
    expect(describeEvent(event("exit_refused", { code }))).toBe(words);
  });

  it("a refusal without a code", () => {
    expect(describeEvent(event("exit_refused", null))).toBe("Exit gate refused: no reason given");
  });

  it("let out with goods: what is left unpaid; with an empty cart: nothing owed", () => {
    expect(describeEvent(event("let_out", { amount: 19.9, left_unpaid: true }, "anna@example.se"))).toMatch(
      /^Let out unpaid by anna@example\.se: 19,90\s*kr left unpaid$/,
    );
    expect(describeEvent(event("let_out", { amount: 0, left_unpaid: false }, "anna@example.se"))).toBe(
      "Let out unpaid by anna@example.se, with an empty cart",
    );
  });
});

describe("the timeline says what the face check came to, never anything about the face", () => {
  it.each([
    [{ status: "ok", reason: "verified" }, "Face check passed at the exit"],
    [{ status: "not_verified", reason: "no_match" }, "Face check not passed (another face at the exit)"],
    [{ status: "not_verified", reason: "ambiguous" }, "Face check not passed (another visit's face as near)"],
    [{ status: "not_verified", reason: "not_enrolled" }, "Face check not passed (no face learnt at the door)"],
    [{ status: "not_verified", reason: "timeout" }, "Face check not passed (no answer in time)"],
    [{ status: "not_verified", reason: "new_reason" }, "Face check not passed (new reason)"],
  ])("at the exit: %o", (detail, words) => {
    expect(describeEvent(event("face_check", detail))).toBe(words);
  });

  it.each([
    ["kept", "Face learnt at the door for the exit"],
    ["no_face", "Face not learnt at the door (no face at the entrance)"],
    ["no_camera", "Face not learnt at the door (no entrance camera answered)"],
    ["visit_gone", "Face not learnt at the door (consent withdrawn or the visit over)"],
  ])("at the door: %s", (outcome, words) => {
    expect(describeEvent(event("face_enrolment", { outcome }))).toBe(words);
  });
});

describe("a line's pant", () => {
  it("reads as the quantity times the pant of one", () => {
    expect(pantLineText(3, { unit: 2, total: 6 })).toBe("Pant 3 × 2,00\u00a0kr");
    expect(pantLineText(1, { unit: 3, total: 3 })).toBe("Pant 1 × 3,00\u00a0kr");
  });
});

describe("a line sold at a campaign's price", () => {
  it("names the shelf's ordinary price for one beside it", () => {
    expect(campaignText(64.9)).toBe("campaign, ordinary 64,90\u00a0kr");
  });
});

describe("an order's multi-buy discounts", () => {
  it("show as kronor off, with a minus sign, beside the line and on their own line", () => {
    expect(discountAmountText(49.9)).toBe("\u221249,90\u00a0kr");
    expect(offerText(49.9)).toBe("offer \u221249,90\u00a0kr");
  });

  it("name the offer, and how many times it was taken only when more than once", () => {
    expect(discountLineText({ label: "3 för 2 Bregott", times: 1 })).toBe("3 för 2 Bregott");
    expect(discountLineText({ label: "3 för 2 Bregott", times: 2 })).toBe("3 för 2 Bregott (2 times)");
  });
});

describe("an order paid partly with pant vouchers", () => {
  it("names each voucher by its code, with what it paid as kronor off", () => {
    expect(voucherLineText("9801234500240")).toBe("Pant voucher 9801234500240");
    expect(discountAmountText(24)).toBe("\u221224,00\u00a0kr");
  });

  it("the card paid the total less every voucher, to the öre", () => {
    expect(paidByCard(149.7, [{ amount: 24 }])).toBe(125.7);
    // 0.1 + 0.2 in kronor would drift; in öre it does not.
    expect(paidByCard(10.3, [{ amount: 0.1 }, { amount: 0.2 }])).toBe(10);
    expect(paidByCard(149.7, [])).toBe(149.7);
  });
});
