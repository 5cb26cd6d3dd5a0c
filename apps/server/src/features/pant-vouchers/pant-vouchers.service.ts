import { type Cart, pantVoucherOf } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, conflict, notFound } from "../../platform/errors.ts";
import { readCart } from "../cart/cart.service.ts";
import { type CartActor, openSession } from "../cart/cart-visit.ts";

/**
 * Pant machine vouchers (pantkvitto) on a visit's cart. A voucher is a means
 * of payment: it pays part of what the cart costs and changes neither the
 * receipt's total nor its VAT. Each printed voucher is taken once in the
 * whole chain: its code is the key of pant_vouchers, so of two visits that
 * scan it at once one gets it and the other hears it is used. Taken out of
 * the cart it is free again; a visit that ends with nothing to pay gives its
 * vouchers back (checkout/order-plan.ts).
 */

const notAVoucher = () =>
  new AppError(
    422,
    "invalid_voucher",
    "Det här är inget pantkvitto vi kan ta emot. Kontrollera koden och försök igen.",
  );

/** Adds the voucher to the shopper's open visit; answers the cart. The same scan_id again answers as the first did. */
export async function addVoucher(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
  barcode: string;
  scanId?: string | undefined;
  at: Date;
}): Promise<Cart> {
  const voucher = pantVoucherOf(opts.barcode);
  if (!voucher) throw notAVoucher();
  const actor: CartActor = { kind: "shopper", customerId: opts.customerId };
  await opts.db.transaction(async (tx) => {
    // Held against a checkout (FOR KEY SHARE), as every cart change is: a cart being charged does not change.
    const visit = await openSession(tx, actor, opts.sessionId, true);
    const [taken] = await queryRows<{ code: string }>(
      tx,
      sql`insert into pant_vouchers (code, amount_ore, session_id, store_id, scan_id)
          values (${voucher.code}, ${voucher.amountOre}, ${visit.id}, ${visit.store_id}, ${opts.scanId ?? null})
          on conflict (code) do nothing returning code`,
    );
    if (taken) return;
    const [held] = await queryRows<{ session_id: string | null; scan_id: string | null }>(
      tx,
      sql`select session_id, scan_id from pant_vouchers where code = ${voucher.code}`,
    );
    if (held?.session_id !== visit.id) throw conflict("Pantkvittot har redan använts.", "voucher_used");
    if (!opts.scanId || held.scan_id !== opts.scanId)
      throw conflict("Pantkvittot finns redan i din kundvagn.", "voucher_in_cart");
  });
  return readCart(opts.db, opts.sessionId, opts.at);
}

/** Takes the voucher out of the shopper's open visit, free for another; answers the cart. */
export async function removeVoucher(opts: {
  db: Db;
  customerId: string;
  sessionId: string;
  code: string;
  at: Date;
}): Promise<Cart> {
  const actor: CartActor = { kind: "shopper", customerId: opts.customerId };
  await opts.db.transaction(async (tx) => {
    await openSession(tx, actor, opts.sessionId, true);
    const [gone] = await queryRows<{ code: string }>(
      tx,
      sql`delete from pant_vouchers where code = ${opts.code} and session_id = ${opts.sessionId} returning code`,
    );
    if (!gone) throw notFound("Pantkvittot finns inte i din kundvagn.", "unknown_voucher");
  });
  return readCart(opts.db, opts.sessionId, opts.at);
}
