import { describe, expect, it } from "vitest";
import {
  added,
  auditOf,
  body,
  listed,
  nobody,
  offerCount,
  platform,
  storeA,
  storeAdmin,
  storeAdminEmail,
  storeB,
  URL,
  useOffersApp,
} from "./offers.fixtures.ts";

/**
 * Who may do what with offers, as with campaigns: platform admins everything;
 * a store admin reads the chain-wide offers and their own stores', and writes
 * only their own stores' (never a chain-wide one, never one moved away).
 */
useOffersApp();

const refused = (res: Awaited<ReturnType<typeof platform.post>>, detail: string) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ code: "forbidden", detail });
};
const NOT_THEIRS = "You do not manage this store";
const CHAIN_WIDE = "Only platform admins may set an offer for every store";

describe("a store admin", () => {
  it("sees the chain-wide offers and their own stores', never another store's", async () => {
    const own = await added({ store_id: storeA });
    const chain = await added({ store_id: null });
    const other = await added({ store_id: storeB });
    const seen = (await listed("limit=100", storeAdmin)).items.map((c) => c.id);
    expect(seen).toEqual(expect.arrayContaining([own.id, chain.id]));
    expect(seen).not.toContain(other.id);
    // Their own store's filter: its offers and the chain-wide ones.
    const inA = (await listed(`store_id=${storeA}&limit=100`, storeAdmin)).items.map((c) => c.id);
    expect(inA).toEqual(expect.arrayContaining([own.id, chain.id]));
    expect(inA).not.toContain(other.id);
    refused(await storeAdmin.get(`${URL}?store_id=${storeB}`), NOT_THEIRS);
  });

  it("adds, changes and deletes an offer of their own store, in the audit log under their name", async () => {
    const created = await added({ store_id: storeA }, storeAdmin);
    const put = await storeAdmin.put(`${URL}/${created.id}`, body({ buy: 4 }));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ store_id: storeA, buy: 4 });
    expect((await storeAdmin.delete(`${URL}/${created.id}`)).statusCode).toBe(204);
    expect((await auditOf(created.id)).map((a) => [a.action, a.actor_email, a.store_id])).toEqual([
      ["offer.create", storeAdminEmail, storeA],
      ["offer.update", storeAdminEmail, storeA],
      ["offer.delete", storeAdminEmail, storeA],
    ]);
  });

  it("may not add a chain-wide offer or one of another store (403), and nothing is written", async () => {
    const before = await offerCount();
    refused(await storeAdmin.post(URL, body({ store_id: null })), CHAIN_WIDE);
    refused(await storeAdmin.post(URL, body({ store_id: storeB })), NOT_THEIRS);
    expect(await offerCount()).toBe(before);
  });

  it("may not change or delete a chain-wide offer or another store's", async () => {
    const chain = await added({ store_id: null });
    const other = await added({ store_id: storeB });
    refused(await storeAdmin.put(`${URL}/${chain.id}`, body({ store_id: null, buy: 5 })), CHAIN_WIDE);
    // Not even by taking it into their own store.
    refused(await storeAdmin.put(`${URL}/${chain.id}`, body({ store_id: storeA })), CHAIN_WIDE);
    refused(await storeAdmin.put(`${URL}/${other.id}`, body({ store_id: storeA })), NOT_THEIRS);
    refused(await storeAdmin.delete(`${URL}/${chain.id}`), CHAIN_WIDE);
    refused(await storeAdmin.delete(`${URL}/${other.id}`), NOT_THEIRS);
    const still = (await listed("limit=100")).items;
    expect(still.find((c) => c.id === chain.id)).toEqual(chain);
    expect(still.find((c) => c.id === other.id)).toEqual(other);
  });

  it("may not move their own store's offer to another store or make it chain-wide", async () => {
    const own = await added({ store_id: storeA });
    refused(await storeAdmin.put(`${URL}/${own.id}`, body({ store_id: storeB })), NOT_THEIRS);
    refused(await storeAdmin.put(`${URL}/${own.id}`, body({ store_id: null })), CHAIN_WIDE);
    expect((await listed("limit=100")).items.find((c) => c.id === own.id)).toEqual(own);
    expect((await auditOf(own.id)).map((a) => a.action)).toEqual(["offer.create"]);
  });
});

describe("a platform admin", () => {
  it("sees every offer, and moves one between stores and to every store", async () => {
    const own = await added({ store_id: storeB });
    expect((await listed("limit=100")).items.map((c) => c.id)).toContain(own.id);
    const moved = await platform.put(`${URL}/${own.id}`, body({ store_id: storeA }));
    expect(moved.json()).toMatchObject({ store_id: storeA, store_name: "Erbjudandebutiken" });
    const everywhere = await platform.put(`${URL}/${own.id}`, body({ store_id: null }));
    expect(everywhere.json()).toMatchObject({ store_id: null, store_name: null });
  });
});

describe("nobody signed in", () => {
  it("is refused every route with 401", async () => {
    const made = await added();
    for (const res of [
      await nobody.get(URL),
      await nobody.post(URL, body()),
      await nobody.put(`${URL}/${made.id}`, body()),
      await nobody.delete(`${URL}/${made.id}`),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBeTruthy();
    }
  });
});
