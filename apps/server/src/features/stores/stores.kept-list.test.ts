import type { Store } from "@glide/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { clearExpired } from "../../platform/housekeeping.ts";
import { as, signIn } from "../../test/harness.ts";
import { keptStoreLists, storeListChangesFold } from "./store-list.ts";
import { admin, create, ctx, useStoresApp } from "./stores.fixtures.ts";

/**
 * The console's store list is kept per instance under the list version
 * (migration 0030, store-list.ts). What it must never do: answer a list from
 * before a change that committed before the request began, whoever made it,
 * or answer one admin what another may see.
 */
useStoresApp();

const list = async (who = admin, query = ""): Promise<Store[]> => {
  const res = await who.get(`/api/v1/stores/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  return res.json();
};
const version = async () =>
  Number(
    (
      await queryRows<{ version: string }>(
        ctx.app.db,
        sql`select coalesce(sum(weight), 0) as version from store_list_changes`,
      )
    )[0]!.version,
  );
const named = (stores: Store[], id: string) => stores.find((store) => store.id === id);

describe("the kept store list", () => {
  let store: Store;
  beforeAll(async () => {
    store = await create({ name: "Kvarnbutiken", city: "Umeå" });
  });

  it("answers the same list twice without a change, with its total", async () => {
    const first = await admin.get("/api/v1/stores/?limit=1");
    const again = await admin.get("/api/v1/stores/?limit=1");
    expect(again.body).toBe(first.body);
    expect(again.headers["x-total-count"]).toBe(first.headers["x-total-count"]);
    expect(Number(again.headers["x-total-count"])).toBeGreaterThanOrEqual(1);
  });

  it("shows a change written by anything else (another instance, a script) on the very next request", async () => {
    expect(named(await list(), store.id)?.name).toBe("Kvarnbutiken");
    await ctx.app.db.execute(sql`update stores set name = 'Kvarnbutiken Nord' where id = ${store.id}`);
    expect(named(await list(), store.id)?.name).toBe("Kvarnbutiken Nord");

    await ctx.app.db.execute(
      sql`insert into store_modules (store_id, module_id, enabled) values (${store.id}, 'analytics', true)
          on conflict (store_id, module_id) do update set enabled = true`,
    );
    expect(named(await list(), store.id)?.settings.modules.analytics).toEqual({ enabled: true });
    await ctx.app.db.execute(sql`update store_modules set enabled = false where store_id = ${store.id}`);
    expect(named(await list(), store.id)?.settings.modules.analytics).toEqual({ enabled: false });
    await ctx.app.db.execute(sql`delete from store_modules where store_id = ${store.id}`);
    expect(named(await list(), store.id)?.settings.modules).toEqual({});
  });

  it("shows a change made through the other routes: a store's own settings", async () => {
    await list();
    const res = await admin.put(`/api/v1/settings/stores/${store.id}`, {
      settings: { ai: { confidence_threshold: 0.9 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(named(await list(), store.id)?.custom_settings).toEqual({ ai: { confidence_threshold: 0.9 } });
  });

  it("shows a new store and loses a deleted one at once, in the list and its total", async () => {
    const before = await admin.get("/api/v1/stores/");
    const added = await create({ name: "Nyöppnad" });
    const after = await admin.get("/api/v1/stores/");
    expect(Number(after.headers["x-total-count"])).toBe(Number(before.headers["x-total-count"]) + 1);
    expect(named(after.json(), added.id)).toBeDefined();
    expect((await admin.delete(`/api/v1/stores/${added.id}`)).statusCode).toBe(204);
    expect(named(await list(), added.id)).toBeUndefined();
  });

  it("raises the version once per statement that writes stores or their modules, and not for a read", async () => {
    const v = await version();
    await list();
    expect(await version()).toBe(v);
    await ctx.app.db.execute(sql`update stores set phone = '090-1' where id = ${store.id}`);
    expect(await version()).toBe(v + 1);
    await ctx.app.db.execute(sql`update stores set phone = '090-2' where id = ${store.id} and false`);
    // A statement that changed no row still counts: cheaper than knowing, and never stale.
    expect(await version()).toBe(v + 2);
  });

  it("keeps the version when housekeeping folds the change log into one row, however often it runs", async () => {
    await ctx.app.db.execute(sql`update stores set phone = '090-3' where id = ${store.id}`);
    const v = await version();
    const kept = await admin.get("/api/v1/stores/");
    await clearExpired(ctx.app.db, [storeListChangesFold]);
    const rows = async () =>
      Number((await queryRows<{ n: string }>(ctx.app.db, sql`select count(*) as n from store_list_changes`))[0]!.n);
    expect(await rows()).toBe(1);
    expect(await version()).toBe(v);
    await clearExpired(ctx.app.db, [storeListChangesFold]);
    expect(await rows()).toBe(1);
    expect(await version()).toBe(v);
    expect((await admin.get("/api/v1/stores/")).body).toBe(kept.body);
    await ctx.app.db.execute(sql`update stores set phone = '090-4' where id = ${store.id}`);
    expect(await version()).toBe(v + 1);
    expect(named(await list(), store.id)?.phone).toBe("090-4");
  });

  it("never answers a store admin from a platform admin's kept list, and follows their stores as they change", async () => {
    const theirs = await create({ name: "Butik för en" });
    const another = await create({ name: "Butik för en till" });
    const session = await signIn(ctx.app, "store_admin", [theirs.id]);
    const storeAdmin = as(ctx.app, session.cookie);
    expect((await list()).length).toBeGreaterThan(2);
    expect((await list(storeAdmin)).map((s) => s.id)).toEqual([theirs.id]);
    // Given one more store (their assignments are not a store's columns): the list follows at once.
    await ctx.app.db.execute(
      sql`insert into admin_user_stores (admin_user_id, store_id) values (${session.id}, ${another.id})`,
    );
    expect((await list(storeAdmin)).map((s) => s.id).sort()).toEqual([theirs.id, another.id].sort());
    await ctx.app.db.execute(sql`delete from admin_user_stores where admin_user_id = ${session.id}`);
    expect(await list(storeAdmin)).toEqual([]);
  });

  it("keeps searches and pages apart", async () => {
    const all = await list();
    const found = await list(admin, "?search=kvarnbutiken");
    expect(found.map((s) => s.id)).toEqual([store.id]);
    expect(await list(admin, "?limit=1&offset=1")).toEqual([all[1]]);
    expect(await list(admin, "?limit=1")).toEqual([all[0]]);
  });

  it("writes to many stores at once all succeed: writers only add rows to the change log, never wait on each other there", async () => {
    const stores = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ name: `Samtidig ${i}` })));
    const writes = stores.flatMap((s, i) => [
      admin.put(`/api/v1/stores/${s.id}`, { phone: `08-${i}` }),
      admin.post(`/api/v1/stores/${s.id}/modules/analytics`, { enabled: i % 2 === 0 }),
      admin.put(`/api/v1/settings/stores/${s.id}`, { settings: { ai: { confidence_threshold: 0.5 } } }),
    ]);
    const answers = await Promise.all(writes);
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200));
    const after = await list();
    for (const [i, s] of stores.entries()) {
      expect(named(after, s.id)?.phone).toBe(`08-${i}`);
      expect(named(after, s.id)?.settings.modules.analytics).toEqual({ enabled: i % 2 === 0 });
    }
  });
});

describe("what one instance keeps", () => {
  const platformAdmin = { id: "x", email: "x@example.se", role: "platform_admin" as const, storeIds: [] };

  it("stays within its budget, forgetting the oldest first, and keeps no list larger than a quarter of it", async () => {
    // A search that finds nothing answers "[]": 2 bytes each, so the budget's edges are exact.
    const empty = (lists: ReturnType<typeof keptStoreLists>, n: number) =>
      lists.list(ctx.app.db, platformAdmin, { search: `ingenting-${n}` });
    const lists = keptStoreLists(8);
    for (const n of [1, 2, 3, 4]) expect((await empty(lists, n)).body.toString()).toBe("[]");
    expect([lists.size, lists.bytes]).toEqual([4, 8]);
    await empty(lists, 5);
    expect([lists.size, lists.bytes]).toEqual([4, 8]);
    // A quarter of 8 is 2: a 2-byte list is kept; under a budget of 7 it is not.
    const tight = keptStoreLists(7);
    await empty(tight, 1);
    expect([tight.size, tight.bytes]).toEqual([0, 0]);
    const one = (await keptStoreLists().list(ctx.app.db, platformAdmin, { limit: 1 })).body.length;
    const pages = keptStoreLists(one * 4 + 10);
    for (const offset of [0, 1, 2, 3, 4, 5]) await pages.list(ctx.app.db, platformAdmin, { limit: 1, offset });
    expect(pages.bytes).toBeLessThanOrEqual(one * 4 + 10);
    expect(pages.size).toBeGreaterThanOrEqual(3);
  });

  it("keeps each search apart, the same search trimmed or not as one", async () => {
    const lists = keptStoreLists();
    await lists.list(ctx.app.db, platformAdmin, { search: "kvarn" });
    await lists.list(ctx.app.db, platformAdmin, { search: " kvarn " });
    expect(lists.size).toBe(1);
    const other = await lists.list(ctx.app.db, platformAdmin, { search: "ingen sådan butik" });
    expect(other.body.toString()).toBe("[]");
    expect(lists.size).toBe(2);
    expect((await lists.list(ctx.app.db, platformAdmin, { search: "kvarn" })).body.toString()).not.toBe("[]");
  });

  it("answers a kept list as the same bytes until the version moves", async () => {
    const lists = keptStoreLists();
    const first = await lists.list(ctx.app.db, platformAdmin, {});
    expect((await lists.list(ctx.app.db, platformAdmin, {})).body).toBe(first.body);
    await ctx.app.db.execute(sql`update stores set description = 'ny' where id = (select id from stores limit 1)`);
    const second = await lists.list(ctx.app.db, platformAdmin, {});
    expect(second.body).not.toBe(first.body);
    // The new answer replaced the old one: one kept, its bytes counted once.
    expect(lists.size).toBe(1);
    expect(lists.bytes).toBe(second.body.length);
  });
});
