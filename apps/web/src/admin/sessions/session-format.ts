import type { LinePant, SessionDetail, SessionEventSource, SessionPaymentState, SessionStatus } from "@glide/contracts";
import { formatKronor } from "../../lib/format.ts";
import type { BadgeVariant } from "../../ui/badge.tsx";

/** The statuses as words, in the order of SESSION_STATUSES (docs/sessions.md, Statuses). */
export const STATUS_LABELS: Record<SessionStatus, string> = {
  entered: "Entered",
  shopping: "Shopping",
  checked_out: "Checked out",
  abandoned: "Abandoned",
  left_unpaid: "Left unpaid",
  written_off: "Written off",
  disputed: "Disputed",
};

/** Left unpaid waits for staff (charge or write off), so it stands out; written off is settled and quiet. */
export const STATUS_VARIANTS: Record<SessionStatus, BadgeVariant> = {
  entered: "outline",
  shopping: "default",
  checked_out: "success",
  abandoned: "secondary",
  left_unpaid: "attention",
  written_off: "muted",
  disputed: "destructive",
};

export const PAYMENT_LABELS: Record<SessionPaymentState, string> = {
  none: "Not charged",
  charging: "Charging",
  unsettled: "Awaiting the provider",
  declined: "Declined",
  paid: "Paid",
  partly_refunded: "Partly refunded",
  refunded: "Refunded",
};

/** The timeline's sources as words (docs/sessions.md). */
export const SOURCE_LABELS: Record<SessionEventSource, string> = {
  phone: "Phone",
  camera_worker: "Camera",
  staff: "Staff",
  door: "Door",
  exit_gate: "Exit gate",
  system: "System",
};

/**
 * The pant line under a product on the cart or the receipt: "Pant 2 × 2,00 kr".
 * The line's own total leaves the pant out, so the pant shows apart with its total.
 */
/** Beside a line sold at a campaign's price: the shelf's ordinary price for one. */
export const campaignText = (ordinary: number): string => `campaign, ordinary ${formatKronor(ordinary)}`;

/** Kronor off, as the receipt's lines show it: "−49,90 kr". */
export const discountAmountText = (amount: number): string => formatKronor(-amount);

/** Beside a line a multi-buy offer took from: what it gave off, so the line's total less it is what was paid. */
export const offerText = (discount: number): string => `offer ${discountAmountText(discount)}`;

/** A multi-buy discount's line under the goods: its label, and how many times it was taken when more than once. */
export const discountLineText = (discount: { label: string; times: number }): string =>
  discount.times > 1 ? `${discount.label} (${discount.times} times)` : discount.label;

export const pantLineText = (quantity: number, pant: NonNullable<LinePant>): string =>
  `Pant ${quantity} × ${formatKronor(pant.unit)}`;

/** A pant machine voucher's line under the order's total: the code printed on it. */
export const voucherLineText = (code: string): string => `Pant voucher ${code}`;

/** Kronor to öre, so sums of kronor do not drift by a float's öre. */
const ore = (kronor: number) => Math.round(kronor * 100);

/**
 * What the card paid of an order that pant machine vouchers paid part of:
 * the total, which stands with its VAT, less the vouchers.
 */
export const paidByCard = (total: number, vouchers: ReadonlyArray<{ amount: number }>): number =>
  (ore(total) - vouchers.reduce((sum, voucher) => sum + ore(voucher.amount), 0)) / 100;

type TimelineEvent = SessionDetail["timeline"][number];
const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
const money = (value: unknown) => (typeof value === "number" ? formatKronor(value) : "");

/** Why a refund was made, when it was not a refund asked for in the console. */
const REFUND_ORIGIN: Record<string, string> = { spot_check: " at a spot check", dispute: " for a dispute" };

/**
 * Why the exit gate kept a real exit code out, by the code the gate answered
 * (the visit's `exit_refused` event); a code not named here is shown as it is.
 */
export const EXIT_REFUSALS: Record<string, string> = {
  no_payment_method: "no card on file",
  payment_declined: "payment declined by the bank",
  payments_not_configured: "payments are not set up",
  payment_in_progress: "a payment is still under way",
  exit_code_used: "exit code already used",
  stale_exit_code: "exit code of an earlier visit",
  wrong_store: "exit code for another store",
};

/** Why the exit's face check did not let the shopper out (the visit's `face_check` event); the QR code then did. */
export const FACE_CHECK_REASONS: Record<string, string> = {
  no_consent: "no consent",
  module_off: "face check off in this store",
  not_enrolled: "no face learnt at the door",
  no_camera: "no exit camera answered",
  no_face: "no face at the exit",
  no_match: "another face at the exit",
  ambiguous: "another visit's face as near",
  unreadable: "the picture could not be read",
  busy: "too many checks at once",
  timeout: "no answer in time",
};

/** Why no face was learnt at the door (the visit's `face_enrolment` event). */
export const FACE_ENROLMENTS: Record<string, string> = {
  no_camera: "no entrance camera answered",
  no_face: "no face at the entrance",
  unreadable: "the picture could not be read",
  busy: "too many at once",
  visit_gone: "consent withdrawn or the visit over",
};

/** What happened, in a line a person reads: "Added Apelsinjuice (7310000006011)". */
export function describeEvent(event: TimelineEvent): string {
  const d = event.detail ?? {};
  switch (event.kind) {
    case "entry_issued":
      return "Entry QR code issued";
    case "entry_revoked":
      return d.reason === "replaced" ? "Entry QR code replaced by a new one" : "Entry QR code cancelled";
    case "door_opened":
      return `Door opened${d.via ? ` (${text(d.via)} door)` : ""}`;
    case "item_added":
      return `Added ${text(d.product)}${d.barcode ? ` (${d.label ? "label " : ""}${text(d.barcode)})` : ""}`;
    case "quantity_changed":
      return `Quantity of ${text(d.product)} changed from ${text(d.from)} to ${text(d.to)}`;
    case "item_removed":
      return `Removed ${text(d.product)}${typeof d.quantity === "number" && d.quantity > 1 ? ` (${d.quantity})` : ""}`;
    case "exit_qr":
      return "Exit QR code read at the gate";
    case "exit_refused":
      return `Exit gate refused: ${EXIT_REFUSALS[text(d.code)] ?? (text(d.code).replaceAll("_", " ") || "no reason given")}`;
    case "let_out": {
      const who = `Let out unpaid by ${event.staff_email ?? "staff"}`;
      return d.left_unpaid === true ? `${who}: ${money(d.amount)} left unpaid` : `${who}, with an empty cart`;
    }
    case "face_check":
      return d.status === "ok"
        ? "Face check passed at the exit"
        : `Face check not passed (${FACE_CHECK_REASONS[text(d.reason)] ?? text(d.reason).replaceAll("_", " ")})`;
    case "face_enrolment":
      return d.outcome === "kept"
        ? "Face learnt at the door for the exit"
        : `Face not learnt at the door (${FACE_ENROLMENTS[text(d.outcome)] ?? text(d.outcome).replaceAll("_", " ")})`;
    case "checkout":
      return d.empty ? "Left with an empty cart" : `Checkout started: ${money(d.amount)}`;
    case "charged":
      return `Charged ${money(d.amount)}, receipt ${text(d.receipt_number)}${d.settled_later ? " (settled later)" : ""}`;
    case "charge_failed":
      return `Charge of ${money(d.amount)} declined${d.code ? ` (${text(d.code)})` : ""}`;
    case "unsettled":
      return `No answer from the payment provider for ${money(d.amount)}; settled later`;
    case "abandoned":
      return d.left_unpaid === true
        ? `Left unpaid: closed after ${text(d.idle_minutes)} minutes without activity, with goods in the cart`
        : `Closed as abandoned after ${text(d.idle_minutes)} minutes without activity`;
    case "staff_charge":
      return `Staff asked to charge ${money(d.amount)} to the card on file`;
    case "written_off":
      return `Written off ${money(d.amount)}${d.reason ? `: ${text(d.reason)}` : ""}`;
    case "refund":
      return `Refunded ${money(d.amount)}${REFUND_ORIGIN[text(d.origin)] ?? ""}${d.reason ? `: ${text(d.reason)}` : ""}`;
    case "spot_check_flagged":
      return "Picked for a spot check at the exit";
    case "spot_check_outcome":
      return d.outcome === "items_added"
        ? `Spot check: items added${d.charge !== null && d.charge !== undefined ? `, ${money(d.charge)} charged apart` : ""}`
        : d.outcome === "items_removed"
          ? "Spot check: items removed (refunded)"
          : "Spot check: OK";
    case "dispute":
      return "Receipt disputed by the shopper";
    case "dispute_resolved":
      return `Dispute ${d.state === "rejected" ? "rejected" : "resolved"}${d.resolution ? `: ${text(d.resolution)}` : ""}`;
    default:
      return event.kind.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  }
}
