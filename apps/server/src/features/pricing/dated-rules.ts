import type { SQL } from "drizzle-orm";
import { sql } from "../../db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { assertCanManageStore, assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { homeToday } from "../vat-rates/vat-rate-table.ts";

/**
 * What the price rules admins keep by the day (campaigns, multi-buy offers)
 * share: one store or every store (store_id null), from one day to another
 * in each store's calendar, chain-wide ones written by platform admins only.
 * `rule` and `store` are the aliases of the rule's row and its store's
 * (left joined) in the statement.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A rule broken by one field, worded as the body's validation words it ("price: ..."), for the form to mark it. */
export const fieldProblem = (path: string, message: string) =>
  new AppError(422, "validation_error", `${path}: ${message}`, [{ path, message }]);

/**
 * SQL for a rule's status at `at` on its own today: the store's calendar day
 * for a store's rule, Sweden's for a chain-wide one (it has no single store;
 * the platform's home is Sweden).
 */
export function datedStatusAt(at: Date, rule = "c", store = "st"): SQL {
  const [r, st] = [sql.raw(rule), sql.raw(store)];
  const today = sql`coalesce((${at.toISOString()}::timestamptz at time zone ${st}.timezone)::date, ${homeToday(at)}::date)`;
  return sql`(case when ${today} < ${r}.starts_on then 'upcoming' when ${today} > ${r}.ends_on then 'ended' else 'active' end)`;
}

/**
 * Whose rules the admin sees: every one for a platform admin; the
 * chain-wide ones and their own stores' for a store admin. Asked for one
 * store, the rules that count there: its own and the chain-wide ones (403
 * for a store the admin does not manage).
 */
export function visibleRulesTo(actor: AdminActor, storeId: string | undefined, rule = "c"): SQL {
  const r = sql.raw(rule);
  if (storeId) {
    assertCanManageStore(actor, storeId);
    return sql`(${r}.store_id is null or ${r}.store_id = ${storeId})`;
  }
  if (actor.role === "platform_admin") return sql`true`;
  if (actor.storeIds.length === 0) return sql`${r}.store_id is null`;
  return sql`(${r}.store_id is null or ${r}.store_id in (select unnest(${`{${actor.storeIds.join(",")}}`}::uuid[])))`;
}

/** Who may write a rule of `storeId`: a chain-wide one only platform admins ("set a campaign for every store"), a store's its admins. */
export function assertMayWriteRule(actor: AdminActor, storeId: string | null, everyStore: string): void {
  if (storeId === null) assertPlatformAdmin(actor, everyStore);
  else assertCanManageStore(actor, storeId);
}

/** The text searched for, lower-cased, as a LIKE pattern that matches it literally (% and _ included). */
export const literalLike = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
