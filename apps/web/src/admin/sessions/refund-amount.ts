import { lineRefundOre, type RefundableLine } from "@glide/contracts";

/**
 * What a refund gives back, computed as the server computes it
 * (refunds.service.ts: plan, then capToCard), so the dialog's amount is the
 * one the shopper gets.
 */

/** The checkout's card paid the lines not added at a spot check (those were charged apart). */
const ofCheckout = (line: Pick<RefundableLine, "origin">) => line.origin !== "spot_check";

/**
 * Öre the checkout's card can still be given back when pant machine vouchers
 * paid part of the order: its lines, less the vouchers, less what was given
 * back of them already. A voucher is never paid out.
 */
export function cardLeftOre(lines: readonly RefundableLine[], voucherOre: number): number {
  const own = lines.filter(ofCheckout);
  const paid = own.reduce((sum, line) => sum + line.total_ore, 0);
  const given = own.reduce((sum, line) => sum + line.refunded_ore, 0);
  return Math.max(0, paid - voucherOre - given);
}

/**
 * Öre given back for `count` more units of each line (`chosen` names every
 * line of the order, 0 for one not refunded): each line's share
 * (lineRefundOre), the checkout's part no more than is left on its card when
 * vouchers paid part of the order. `capped` says the vouchers' share was kept.
 */
export function refundOre(
  chosen: ReadonlyArray<readonly [RefundableLine, number]>,
  voucherOre: number,
): { ore: number; capped: boolean } {
  const part = (checkout: boolean) =>
    chosen
      .filter(([line, count]) => count > 0 && ofCheckout(line) === checkout)
      .reduce((sum, [line, count]) => sum + lineRefundOre(line, count), 0);
  const checkout = part(true);
  const lines = chosen.map(([line]) => line);
  const card = voucherOre > 0 ? Math.min(checkout, cardLeftOre(lines, voucherOre)) : checkout;
  return { ore: card + part(false), capped: card < checkout };
}
