import type { VatCategory } from "@glide/contracts";
import { queryRows, sql, type Tx } from "../../db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { vatPerRate } from "../orders/vat.ts";
import { offersOfVisit, priceWithOffers } from "../pricing/cart-offers.ts";
import { saleVatRates } from "../vat-rates/vat-rate-table.ts";

/** A cart line as the order is made from it. */
export type CartLine = {
  id: string;
  product_id: string;
  name: string;
  quantity: number;
  unit_price_ore: number;
  /** Öre of pant for one, charged and taxed with the line. */
  pant_ore: number;
  /** The ordinary price beside a campaign's ("Kampanj"), or null. */
  ordinary_unit_ore: number | null;
  /** The members' price a non-member saw beside the line; never charged. */
  member_unit_ore: number | null;
  weight_grams: number | null;
  vat_category: VatCategory;
  age_limit: number | null;
  /** A weight or price label's line: no offer takes it. */
  labelled: boolean;
};

/**
 * The visit's cart priced as the order at `now` (the moment of payment):
 * each line's VAT rate of the store's calendar day, the day's multi-buy
 * offers spread over the lines they came from, the total and VAT in öre
 * (the pant charged and taxed with its drink, as Skatteverket has it; a
 * discount lowering the goods of its own rate), and what pant machine
 * vouchers pay of it.
 */
export async function priceOrder(
  tx: Tx,
  visit: { id: string; country: string; timezone: string; vat_rate_bp: number },
  now: Date,
) {
  const lines = await queryRows<CartLine>(
    tx,
    sql`select i.id, i.product_id, p.name, i.quantity, i.unit_price_ore, i.pant_ore, i.ordinary_unit_ore,
          i.member_unit_ore, i.weight_grams, p.vat_category, p.age_limit, i.line_key like 'label:%' as labelled
        from cart_items i join products p on p.id = i.product_id
        where i.session_id = ${visit.id}
        order by i.created_at, i.id`,
  );
  const rateOf = await saleVatRates(tx, visit, now);
  const found = await offersOfVisit(tx, visit.id, now);
  const cart = priceWithOffers(lines, found, rateOf);
  const priced = lines.map((line, position) => ({
    ...line,
    position,
    vat_rate_bp: rateOf(line.vat_category),
    discount_ore: cart.lines[position]!.discount_ore,
  }));
  const totals = priced.map((line) => ({
    totalOre: (line.unit_price_ore + line.pant_ore) * line.quantity - line.discount_ore,
    vatRateBp: line.vat_rate_bp,
  }));
  return {
    lines,
    priced,
    cart,
    totalOre: totals.reduce((sum, line) => sum + line.totalOre, 0),
    vatOre: vatPerRate(totals).reduce((sum, rate) => sum + rate.vatOre, 0),
    voucherOre: found.vouchers.reduce((sum, voucher) => sum + voucher.amount_ore, 0),
  };
}

const kronor = (ore: number) => `${(ore / 100).toFixed(2).replace(".", ",")} kr`;

/** Vouchers pay part of the order; the card must pay the rest, as a voucher is never paid out. */
export function checkVouchers(totalOre: number, voucherOre: number): void {
  if (voucherOre > 0 && voucherOre >= totalOre)
    throw new AppError(
      409,
      "vouchers_cover_cart",
      `Dina pantkvitton (${kronor(voucherOre)}) täcker hela köpet (${kronor(totalOre)}), och pantkvitton betalas inte ut. Lägg till fler varor eller ta bort ett pantkvitto.`,
    );
}
