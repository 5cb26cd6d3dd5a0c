import type { PriceGroup } from "@glide/contracts";
import { eq, sql } from "drizzle-orm";
import { type Db, queryRows, type Tx } from "../../db/client.ts";
import { priceGroups, stores } from "../../db/schema/index.ts";
import { fieldError, forbidden, isUniqueViolation, notFound } from "../../platform/errors.ts";
import { assertPlatformAdmin } from "../admin-auth/admin-auth.hooks.ts";
import type { AdminActor } from "../admin-auth/admin-auth.service.ts";
import { named, recordAudit } from "../audit/audit.ts";

/**
 * Price groups: stores that share prices. A scan in a store of a group takes
 * the store's own price, else the group's, else the catalogue's
 * (ordinaryPriceOf). Platform admins make, rename and delete groups and put
 * stores in them; a store admin reads the groups of their own stores, and of
 * each group only those stores.
 */

type Group = { id: string; name: string };

/** The caller's own stores, as a subquery to test a store's id against. */
const ownStores = (actor: AdminActor) =>
  sql`(select jsonb_array_elements_text(${JSON.stringify(actor.storeIds)}::jsonb)::uuid)`;

/**
 * The group of a request after the caller's right to read it: a platform
 * admin any (404 for none), a store admin a group of one of their stores
 * (403 otherwise, an unknown group too, so they learn nothing of others').
 */
export async function groupFor(db: Db | Tx, actor: AdminActor, groupId: string): Promise<Group> {
  const [group] = await queryRows<Group & { mine: boolean }>(
    db,
    sql`select g.id, g.name, exists (select 1 from stores s where s.price_group_id = g.id
          and s.id in ${ownStores(actor)}) as mine
        from price_groups g where g.id = ${groupId}`,
  );
  if (actor.role !== "platform_admin" && !group?.mine) throw forbidden("You do not manage a store of this price group");
  if (!group) throw notFound(`Price group ${groupId} not found`);
  return { id: group.id, name: group.name };
}

/** Every group the caller sees, by name, with its stores (a store admin's own only) and its number of prices. */
export async function listPriceGroups(db: Db, actor: AdminActor): Promise<PriceGroup[]> {
  const platform = actor.role === "platform_admin";
  const visible = sql`(${platform}::boolean or s.id in ${ownStores(actor)})`;
  const rows = await queryRows<{
    id: string;
    name: string;
    stores: { id: string; name: string }[];
    price_count: number;
    created_at: Date | string;
    updated_at: Date | string;
  }>(
    db,
    sql`select g.id, g.name, g.created_at, g.updated_at,
          coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name) order by lower(s.name), s.id)
            from stores s where s.price_group_id = g.id and ${visible}), '[]'::json) as stores,
          (select count(*)::int from price_group_prices p where p.group_id = g.id) as price_count
        from price_groups g
        where ${platform}::boolean or exists (select 1 from stores s where s.price_group_id = g.id and ${visible})
        order by lower(g.name), g.id`,
  );
  return rows.map((r) => ({
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  }));
}

/** A unique violation on the name, as the form's error beside it. */
const nameTaken = (name: string) => fieldError("name", `A price group named "${name}" already exists`, 409, "conflict");

/** Runs a write that may meet the unique name, answering that as 409 on the name. */
async function withUniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
}

async function listedOne(db: Db, actor: AdminActor, id: string): Promise<PriceGroup> {
  return (await listPriceGroups(db, actor)).find((g) => g.id === id)!;
}

export async function createPriceGroup(opts: { db: Db; actor: AdminActor; name: string }): Promise<PriceGroup> {
  assertPlatformAdmin(opts.actor, "create price groups");
  const id = await withUniqueName(opts.name, () =>
    opts.db.transaction(async (tx) => {
      const [row] = await tx.insert(priceGroups).values({ name: opts.name }).returning();
      await recordAudit(tx, {
        actor: opts.actor,
        action: "price_group.create",
        entityType: "price_group",
        entityId: row!.id,
        summary: `${named("Price group", row!.name)} created`,
        after: { name: row!.name },
      });
      return row!.id;
    }),
  );
  return listedOne(opts.db, opts.actor, id);
}

export async function renamePriceGroup(opts: { db: Db; actor: AdminActor; id: string; name: string }) {
  assertPlatformAdmin(opts.actor, "rename price groups");
  await withUniqueName(opts.name, () =>
    opts.db.transaction(async (tx) => {
      const group = await groupFor(tx, opts.actor, opts.id);
      if (group.name === opts.name) return;
      // The name as stored: the audit log's JSON takes no text the database would not (a lone surrogate).
      const [row] = await tx
        .update(priceGroups)
        .set({ name: opts.name, updatedAt: sql`now()` })
        .where(eq(priceGroups.id, group.id))
        .returning({ name: priceGroups.name });
      await recordAudit(tx, {
        actor: opts.actor,
        action: "price_group.update",
        entityType: "price_group",
        entityId: group.id,
        summary: `${named("Price group", row!.name)} renamed (was "${group.name}")`,
        before: { name: group.name },
        after: { name: row!.name },
      });
    }),
  );
  return listedOne(opts.db, opts.actor, opts.id);
}

/** Deletes a group and its prices; its stores take the catalogue's prices again (where they have none of their own). */
export async function deletePriceGroup(opts: { db: Db; actor: AdminActor; id: string }): Promise<void> {
  assertPlatformAdmin(opts.actor, "delete price groups");
  await opts.db.transaction(async (tx) => {
    const group = await groupFor(tx, opts.actor, opts.id);
    const members = await tx.select({ id: stores.id }).from(stores).where(eq(stores.priceGroupId, group.id));
    await tx.delete(priceGroups).where(eq(priceGroups.id, group.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "price_group.delete",
      entityType: "price_group",
      entityId: group.id,
      summary: `${named("Price group", group.name)} deleted (${members.length} store${members.length === 1 ? "" : "s"} left it)`,
      before: { name: group.name, store_ids: members.map((m) => m.id) },
      after: null,
    });
  });
}

/** Puts a store in a group (or in none, null): from its next scan on it takes the group's prices. */
export async function setStorePriceGroup(opts: {
  db: Db;
  actor: AdminActor;
  storeId: string;
  groupId: string | null;
}): Promise<{ price_group_id: string | null }> {
  assertPlatformAdmin(opts.actor, "assign price groups");
  return opts.db.transaction(async (tx) => {
    const [store] = await tx
      .select({ id: stores.id, name: stores.name, groupId: stores.priceGroupId })
      .from(stores)
      .where(eq(stores.id, opts.storeId))
      .for("update");
    if (!store) throw notFound(`Store ${opts.storeId} not found`);
    const group = opts.groupId ? await groupOrField(tx, opts.groupId) : null;
    if (store.groupId === (group?.id ?? null)) return { price_group_id: store.groupId };
    await tx
      .update(stores)
      .set({ priceGroupId: group?.id ?? null })
      .where(eq(stores.id, store.id));
    await recordAudit(tx, {
      actor: opts.actor,
      action: "price_group.assign",
      entityType: "store",
      entityId: store.id,
      storeId: store.id,
      summary: group
        ? `${named("Store", store.name)} put in ${named("price group", group.name)}`
        : `${named("Store", store.name)} taken out of its price group`,
      before: { price_group_id: store.groupId },
      after: { price_group_id: group?.id ?? null },
    });
    return { price_group_id: group?.id ?? null };
  });
}

/** The group a store is put in: an unknown one is the body's fault (422 on price_group_id). */
async function groupOrField(tx: Tx, groupId: string): Promise<Group> {
  const [group] = await tx
    .select({ id: priceGroups.id, name: priceGroups.name })
    .from(priceGroups)
    .where(eq(priceGroups.id, groupId));
  if (!group) throw fieldError("price_group_id", `Price group ${groupId} not found`);
  return group;
}
