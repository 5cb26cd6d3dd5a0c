import { storeSchema } from "@glide/contracts";
import { z } from "zod";
import { type Db, queryPrepared, sql } from "../../db/client.ts";
import type { ExpiryJob } from "../../platform/housekeeping.ts";
import { weightedLru } from "../../platform/weighted-lru.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { listStores } from "./stores.service.ts";

/** What one instance keeps of store lists at most, in bytes of JSON; a list larger than a quarter of it is not kept. */
export const KEPT_STORE_LISTS_BYTES = 8 * 1024 * 1024;

type Kept = { version: number; body: Buffer; total: number };
type ListQuery = { search?: string | undefined; limit?: number | undefined; offset?: number | undefined };

const storeArray = z.array(storeSchema);

/** Housekeeping: the change log's rows folded into one of the same total weight, so the version stays and reads stay small. */
export const storeListChangesFold: ExpiryJob = {
  table: "store_list_changes",
  deleteExpired: sql`with folded as (delete from store_list_changes returning weight)
    insert into store_list_changes (weight) select sum(weight) from folded having count(*) > 0`,
};

/** The number every change to a store or its modules raises at its commit (store_list_changes, migration 0030). */
async function storeListVersion(db: Db): Promise<number> {
  const [row] = await queryPrepared<{ version: string | number }>(
    db,
    "store_list_version",
    sql`select coalesce(sum(weight), 0)::bigint as version from store_list_changes`,
  );
  // A sum always makes its one row.
  return Number(row!.version);
}

/**
 * The console's store list (GET /api/v1/stores/), answered as JSON kept
 * on this instance under the list version it was read with: a request reads
 * the version (one small row) and, while it is the one a kept answer was read
 * under, answers that, without reading, shaping and checking every store
 * again. A change anywhere, on any instance, raises the version in its own
 * transaction, so the first request that begins after its commit reads the
 * list anew: nothing is answered from before a change the caller could have
 * seen. An answer is kept per what its admin may see (every store, or their
 * own), search and page; the least recently used goes first past
 * KEPT_STORE_LISTS_BYTES.
 */
export function keptStoreLists(budgetBytes = KEPT_STORE_LISTS_BYTES) {
  // Two reads of one list at once may leave the one under the older version kept; it is never answered (the
  // version only rises), and the next request reads the list again.
  const kept = weightedLru<Kept>({
    budget: budgetBytes,
    weigh: (entry) => entry.body.length,
    maxEntry: budgetBytes / 4,
  });

  return {
    async list(db: Db, actor: AdminActor, query: ListQuery): Promise<{ body: Buffer; total: number }> {
      const scope = actor.role === "platform_admin" ? "*" : [...actor.storeIds].sort().join(",");
      const key = JSON.stringify([scope, query.search?.trim() ?? "", query.limit ?? null, query.offset ?? 0]);
      const version = await storeListVersion(db);
      const hit = kept.get(key);
      if (hit?.version === version) return hit;
      const { items, total } = await listStores({ db, actor, ...query });
      // Checked against the answer's schema once, when read, as the route's serializer would on every answer.
      // Kept as bytes: each answer is then written as it is, not encoded again.
      const entry = { version, body: Buffer.from(JSON.stringify(storeArray.parse(items))), total };
      kept.set(key, entry);
      return entry;
    },
    get size() {
      return kept.size;
    },
    get bytes() {
      return kept.weight;
    },
  };
}
