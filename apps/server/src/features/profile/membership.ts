import type { Membership } from "@glide/contracts";
import { type Db, queryRows, sql } from "../../db/client.ts";
import { notFound } from "../../platform/errors.ts";

/**
 * The chain's membership, the shopper's own choice: joining in the app is
 * their consent, leaving withdraws it at once. A member's scans take
 * members-only campaigns, and members-only offers count on their cart.
 */

const answer = (since: Date | string | null): Membership => ({
  member: since !== null,
  since: since === null ? null : new Date(since).toISOString(),
});

export async function readMembership(db: Db, customerId: string): Promise<Membership> {
  const [row] = await queryRows<{ member_since: Date | string | null }>(
    db,
    sql`select member_since from customers where id = ${customerId}`,
  );
  if (!row) throw notFound("Kontot finns inte längre.", "no_account");
  return answer(row.member_since);
}

/**
 * Joins (keeping the first day of a membership already held) or leaves.
 * Joining during a visit gives the lines already scanned the members' price
 * they were shown ("Medlemspris"), so the shopper pays what the phone
 * promised; the visits whose cart changed are answered for their screens to
 * hear. Leaving keeps the prices already on the cart: a line keeps the
 * price of its scan, as with a campaign that ends.
 */
export async function setMembership(
  db: Db,
  customerId: string,
  member: boolean,
  now: Date,
): Promise<{ membership: Membership; repriced: string[] }> {
  return db.transaction(async (tx) => {
    const [row] = await queryRows<{ member_since: Date | string | null }>(
      tx,
      sql`update customers set member_since = ${member ? sql`coalesce(member_since, ${now})` : sql`null`}
          where id = ${customerId} returning member_since`,
    );
    if (!row) throw notFound("Kontot finns inte längre.", "no_account");
    if (!member) return { membership: answer(row.member_since), repriced: [] };
    // Only a cart still open in the store: one being charged (or paid) is frozen.
    const changed = await queryRows<{ session_id: string }>(
      tx,
      sql`update cart_items i set unit_price_ore = i.member_unit_ore,
            ordinary_unit_ore = coalesce(i.ordinary_unit_ore, i.unit_price_ore), member_unit_ore = null,
            updated_at = now()
          where i.member_unit_ore is not null and i.session_id in (
            -- Held as a scan holds it: a checkout planning this cart just now finishes first, and its cart is then frozen.
            select s.id from shopping_sessions s where s.customer_id = ${customerId} and s.state = 'in_store'
            for key share)
          returning i.session_id`,
    );
    return { membership: answer(row.member_since), repriced: [...new Set(changed.map((c) => c.session_id))] };
  });
}
