import type { SQL } from "drizzle-orm";
import { sql } from "../../db/client.ts";
import { MODULE_CATALOGUE } from "../../db/reference-data.ts";

/** A module of the catalogue, by its id: the only ids a feature may ask a store about. */
export type StoreModuleId = (typeof MODULE_CATALOGUE)[number]["moduleId"];

const KNOWN_MODULES: ReadonlySet<string> = new Set(MODULE_CATALOGUE.map((m) => m.moduleId));

/**
 * SQL that is true when the store in `storeId` (a column of the outer query,
 * e.g. sql`s.store_id`) has the module enabled. The id goes to the database
 * as a parameter, and only an id of the catalogue is accepted.
 */
export function moduleEnabled(moduleId: StoreModuleId, storeId: SQL): SQL {
  if (!KNOWN_MODULES.has(moduleId)) throw new Error(`unknown module ${moduleId}`);
  return sql`exists (select 1 from store_modules m where m.store_id = ${storeId}
                and m.module_id = ${moduleId} and m.enabled)`;
}
