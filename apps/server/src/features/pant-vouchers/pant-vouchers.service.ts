import { type Cart, type IssuedPantVoucher, pantVoucherOf } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { AppError, conflict, notFound } from "../../platform/errors.ts";
import { fromOre } from "../../platform/money.ts";
import { readCart } from "../cart/cart.service.ts";
import { type CartActor, openSession } from "../cart/cart-visit.ts";

/**
 * Pant machine vouchers (pantkvitto). The chain's machines report each
 * voucher they print (issued_pant_vouchers), and a cart takes only those, at
 * the value printed: a code that is well formed but was never printed pays
 * nothing. A voucher is a means of payment: it pays part of what the cart
 * costs and changes neither the receipt's total nor its VAT. Each printed
 * voucher is taken once in the whole chain: its code is the key of
 * pant_vouchers, so of two visits that scan it at once one gets it and the
 * other hears it is used. Taken out of the cart it is free again; a visit
 * that ends with nothing to pay gives its vouchers back
 * (checkout/order-plan.ts).
 */

const notAVoucher = () =>
  new AppError(
    422,
    "invalid_voucher",
    "Det här är inget pantkvitto vi kan ta emot. Kontrollera koden och försök igen.",
  );

const notPrinted = () =>
  new AppError(
    422,
    "voucher_not_issued",
    "Pantkvittot känns inte igen: ingen av våra pantmaskiner har skrivit ut det. Fråga personalen om du tror att det är fel.",
  );

/**
 * A pant machine reports a voucher it printed (POST /api/v1/pant-vouchers);
 * `created` is false when the same store's machine reported it before (a
 * retry answers as the first report did). The same code from another store
 * is a clash of serials: 409, and the first report stands.
 */
export async function issueVoucher(
  db: Db,
  machine: { id: string; store_id: string },
  barcode: string,
): Promise<{ voucher: IssuedPantVoucher; created: boolean }> {
  const voucher = pantVoucherOf(barcode);
  if (!voucher)
    throw new AppError(
      422,
      "invalid_voucher",
      "Not a pant voucher code: 980, a five-digit serial, the value in whole kronor (four digits, not 0) and the EAN-13 check digit",
    );
  type Row = { code: string; amount_ore: number; store_id: string; issued_at: Date };
  const [created] = await queryRows<Row>(
    db,
    sql`insert into issued_pant_vouchers (code, amount_ore, store_id, device_key_id)
        values (${voucher.code}, ${voucher.amountOre}, ${machine.store_id}, ${machine.id})
        on conflict (code) do nothing returning code, amount_ore, store_id, issued_at`,
  );
  const [row] = created
    ? [created]
    : await queryRows<Row>(
        db,
        sql`select code, amount_ore, store_id, issued_at from issued_pant_vouchers where code = ${voucher.code}`,
      );
  if (!row) throw conflict("The voucher's store was deleted while it was reported; report it again", "voucher_exists");
  if (row.store_id !== machine.store_id)
    throw conflict("Another store's pant machine already printed a voucher with this code", "voucher_exists");
  return {
    voucher: {
      code: row.code,
      amount: fromOre(row.amount_ore),
      store_id: row.store_id,
      issued_at: new Date(row.issued_at).toISOString(),
    },
    created: Boolean(created),
  };
}

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
    // Only a printed voucher, at the value the register keeps.
    const [taken] = await queryRows<{ code: string }>(
      tx,
      sql`insert into pant_vouchers (code, amount_ore, session_id, store_id, scan_id)
          select code, amount_ore, ${visit.id}, ${visit.store_id}, ${opts.scanId ?? null}
            from issued_pant_vouchers where code = ${voucher.code}
          on conflict (code) do nothing returning code`,
    );
    if (taken) return;
    const [held] = await queryRows<{ session_id: string | null; scan_id: string | null }>(
      tx,
      sql`select session_id, scan_id from pant_vouchers where code = ${voucher.code}`,
    );
    if (!held) throw notPrinted();
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
