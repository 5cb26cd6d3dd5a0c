import type { SQL } from "drizzle-orm";
import { sql } from "../../db/client.ts";
import type { Slot } from "../../db/prepared.ts";
import { fromOre } from "../../platform/money.ts";

/**
 * What one unit of a product costs in a store, as a scan fixes it on the
 * cart line. `product` is the products row's alias in the statement,
 * `storeId` an expression naming the store, `at` the moment of the scan (or
 * the slot it goes in, for a statement built once).
 *
 * - ordinary: ordinaryPriceOf: the store's own price, else its price
 *   group's, else the catalogue's.
 * - campaign: the lowest campaign price valid on the store's calendar day of
 *   `at` (its own time zone), for this store or every store; null without.
 *   Members-only campaigns count when `member` (an SQL boolean: the shopper
 *   is a member of the chain).
 * - memberCampaign: for a shopper who is no member, the lowest members-only
 *   campaign price of the day, shown as "Medlemspris" and never charged;
 *   null for a member or without one.
 *
 * A line takes the campaign price only when it is below the ordinary one,
 * and keeps the ordinary one beside it for "Kampanj".
 */
/**
 * A product's ordinary price in a store: the store's own price (store_prices)
 * where it has one, else its price group's (price_group_prices), else the
 * catalogue's; per kilogram for weighed goods, like the catalogue's. Every
 * statement that prices a product in a store takes it from here.
 */
export function ordinaryPriceOf(product: string, storeId: SQL): SQL {
  const id = sql.raw(`${product}.id`);
  return sql`coalesce(
    (select sp.price_ore from store_prices sp where sp.store_id = ${storeId} and sp.product_id = ${id}),
    (select gp.price_ore from stores gs join price_group_prices gp on gp.group_id = gs.price_group_id
      where gs.id = ${storeId} and gp.product_id = ${id}),
    ${sql.raw(`${product}.price_ore`)})`;
}

export function shelfPriceOf(
  product: string,
  storeId: SQL,
  at: Date | Slot<string>,
  member: SQL = sql`false`,
): { ordinary: SQL; campaign: SQL; memberCampaign: SQL } {
  const id = sql.raw(`${product}.id`);
  const moment = at instanceof Date ? at.toISOString() : at;
  const valid = (which: SQL) => sql`(select min(c.price_ore) from campaigns c join stores cst on cst.id = ${storeId}
      where c.product_id = ${id} and (c.store_id is null or c.store_id = cst.id) and ${which}
        and (${moment}::timestamptz at time zone cst.timezone)::date between c.starts_on and c.ends_on)`;
  return {
    ordinary: ordinaryPriceOf(product, storeId),
    campaign: valid(sql`(not c.members_only or ${member})`),
    memberCampaign: sql`(case when ${member} then null else ${valid(sql`c.members_only`)} end)`,
  };
}

/** A line's price from the two: the campaign's when it is lower, with the ordinary price kept beside it. */
export function campaignPrice(shelf: { price_ore: number; campaign_ore: number | null }): {
  unitOre: number;
  ordinaryOre: number | null;
} {
  return shelf.campaign_ore !== null && shelf.campaign_ore < shelf.price_ore
    ? { unitOre: shelf.campaign_ore, ordinaryOre: shelf.price_ore }
    : { unitOre: shelf.price_ore, ordinaryOre: null };
}

/** A line's ordinary price as the API answers it beside a campaign's, in kronor; null for a line at its ordinary price. */
export const ordinaryUnitPrice = (ordinaryOre: number | null): number | null =>
  ordinaryOre === null ? null : fromOre(ordinaryOre);

/** Öre in the database, kronor in the API; null stays null (the members' price beside a line, say). */
export const kronorOrNull = ordinaryUnitPrice;
