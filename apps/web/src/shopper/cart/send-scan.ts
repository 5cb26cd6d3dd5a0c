import { pantVoucherOf } from "@glide/contracts/barcodes";
import { shopperApi } from "../lib/client.ts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";
import type { CartKeeper } from "./cart-sync.ts";
import type { PendingScan } from "./scan-queue.ts";

/** A scan the server took: the line to say, and whether the copy could not take the answer (read the whole cart). */
export interface SentScan {
  text: string;
  behind: boolean;
}

/**
 * Sends one waiting scan where it belongs: a pant machine voucher
 * (pantkvitto, docs/pant.md) to the vouchers, whose answer is the whole cart;
 * any other code to the scan, whose answer is its line. Both carry the scan's
 * scan_id, so a retry after a lost answer adds once. A refusal is thrown, as
 * the call threw it, for the queue to decide on.
 */
export async function sendScan(keeper: CartKeeper, scan: PendingScan): Promise<SentScan> {
  const body = { session_id: scan.session_id, barcode: scan.barcode, scan_id: scan.scan_id };
  const voucher = pantVoucherOf(scan.barcode);
  if (voucher) {
    keeper.answerCart(await keeper.change(() => shopperApi.addVoucher(body)));
    return { text: sv.scan.voucherAdded(formatKr(voucher.amountOre / 100)), behind: false };
  }
  const answer = await keeper.change(() => shopperApi.scan(body));
  return { text: sv.scan.added(answer.product.name), behind: !keeper.scanAnswered(answer) };
}
