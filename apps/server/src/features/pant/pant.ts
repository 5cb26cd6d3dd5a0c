import type { LinePant } from "@glide/contracts";
import type { SQL } from "drizzle-orm";
import { sql } from "../../db/client.ts";
import { fromOre } from "../../platform/money.ts";

/**
 * The pant of one unit of a product, in öre, in a store's country: the amount
 * pant_amounts gives the product's mark there, 0 for a product without a
 * mark or a mark the country does not have. `product` is the products row's
 * alias in the statement, `storeId` an expression naming the store.
 */
export function pantOreOf(product: string, storeId: SQL): SQL {
  const code = sql.raw(`${product}.pant_code`);
  return sql`coalesce((select a.amount_ore from pant_amounts a join stores pst on pst.country = a.country
    where pst.id = ${storeId} and a.code = ${code}), 0)`;
}

/**
 * What a cart line or an order line is worth in öre: its units' goods and
 * their pant. `line` is the line's alias (cart_items or order_lines' columns).
 */
export function lineValueOre(line: string): SQL {
  return sql.raw(`${line}.quantity::bigint * (${line}.unit_price_ore + ${line}.pant_ore)`);
}

/** The same, for a cart_items or order_lines statement without an alias. */
export const LINE_VALUE_ORE = sql.raw("quantity::bigint * (unit_price_ore + pant_ore)");

/** A line's pant as the API answers it ("Pant 2,00" under the line), null without. */
export function linePant(pantOre: number, quantity: number): LinePant {
  return pantOre > 0 ? { unit: fromOre(pantOre), total: fromOre(pantOre * quantity) } : null;
}
