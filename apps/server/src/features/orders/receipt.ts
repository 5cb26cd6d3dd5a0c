import type { CheckoutResponse, Receipt } from "@glide/contracts";
import { type Db, queryRows, sql, type Tx } from "../../db/client.ts";
import { conflict } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { linePant } from "../pant/pant.ts";
import { discountAnswer, type VisitVoucher, voucherAnswer } from "../pricing/cart-offers.ts";
import { ordinaryUnitPrice } from "../pricing/shelf-price.ts";
import { receiptAfterwards, refundedVat } from "./receipt-refunds.ts";
import { vatPerRate } from "./vat.ts";

/** A paid order as its receipt: what the shopper's phone, the receipt mail and the console show. */
type ReceiptOrderRow = {
  id: string;
  receipt_number: number;
  store_name: string;
  store_legal_name: string | null;
  store_organization_number: string | null;
  store_address: string | null;
  paid_at: Date;
  total_ore: number;
  voucher_ore: number;
  currency: string;
  card_brand: string | null;
  card_last4: string | null;
  emailed: boolean;
};

type ReceiptLineRow = {
  name: string;
  quantity: number;
  unit_price_ore: number;
  pant_ore: number;
  ordinary_unit_ore: number | null;
  /** Goods and pant. */
  total_ore: number;
  /** The multi-buy discounts' part taken from this line. */
  discount_ore: number;
  vat_rate_bp: number;
  weight_grams: number | null;
};

export async function readReceipt(db: Db | Tx, orderId: string): Promise<Receipt | null> {
  const [order] = await queryRows<ReceiptOrderRow>(
    db,
    sql`select id, receipt_number, store_name, store_legal_name, store_organization_number, store_address,
          paid_at, total_ore, voucher_ore, currency, card_brand, card_last4,
          exists (select 1 from receipt_mails m
                  where m.order_id = orders.id and m.kind = 'receipt' and m.state <> 'failed') as emailed
        from orders where id = ${orderId} and state = 'paid'`,
  );
  if (!order) return null;
  const lines = await queryRows<ReceiptLineRow>(
    db,
    sql`select name, quantity, unit_price_ore, pant_ore, ordinary_unit_ore, total_ore, discount_ore, vat_rate_bp,
          weight_grams
        from order_lines where order_id = ${orderId} order by position`,
  );
  const discounts = await queryRows<{ offer_id: string | null; label: string; times: number; amount_ore: number }>(
    db,
    sql`select offer_id, label, times, amount_ore from order_discounts where order_id = ${orderId} order by position`,
  );
  const vouchers = await queryRows<VisitVoucher>(
    db,
    sql`select code, amount_ore from pant_vouchers where order_id = ${orderId} order by scanned_at, code`,
  );
  return {
    id: order.id,
    number: order.receipt_number,
    store: {
      name: order.store_name,
      legal_name: order.store_legal_name,
      organization_number: order.store_organization_number,
      address: order.store_address,
    },
    paid_at: new Date(order.paid_at).toISOString(),
    items: lines.map((line) => ({
      name: line.name,
      quantity: line.quantity,
      unit_price: fromOre(line.unit_price_ore),
      ordinary_unit_price: ordinaryUnitPrice(line.ordinary_unit_ore),
      total: fromOre(line.total_ore - line.pant_ore * line.quantity),
      vat_rate: line.vat_rate_bp / 10_000,
      weight_grams: line.weight_grams,
      pant: linePant(line.pant_ore, line.quantity),
    })),
    discounts: discounts.map(discountAnswer),
    total: fromOre(order.total_ore),
    vouchers: vouchers.map(voucherAnswer),
    paid_by_card: fromOre(order.total_ore - order.voucher_ore),
    // What was paid per rate: each line's goods and pant less the discounts taken from it.
    vat: vatPerRate(
      lines.map((line) => ({ totalOre: line.total_ore - line.discount_ore, vatRateBp: line.vat_rate_bp })),
    ).map((rate) => ({
      rate: rate.vatRateBp / 10_000,
      amount: fromOre(rate.vatOre),
      net: fromOre(rate.netOre),
      gross: fromOre(rate.grossOre),
    })),
    currency: order.currency,
    payment: order.card_brand && order.card_last4 ? { brand: order.card_brand, last4: order.card_last4 } : null,
    ...(await receiptAfterwards(db, [order.id])).get(order.id)!,
    refunded_vat: await refundedVat(db, order.id),
    emailed: order.emailed,
  };
}

export async function paidResponse(db: Db | Tx, orderId: string): Promise<CheckoutResponse> {
  const receipt = await readReceipt(db, orderId);
  if (!receipt) throw conflict("Kvittot finns inte.", "no_receipt");
  return { status: "paid", receipt };
}
