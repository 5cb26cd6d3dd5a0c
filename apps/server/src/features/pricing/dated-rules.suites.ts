import { calendarDay } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { homeToday } from "../vat-rates/vat-rate-table.ts";
import {
  auditOf,
  day,
  nobody,
  platform,
  storeA,
  storeAdmin,
  storeAdminEmail,
  storeB,
  storeIn,
} from "./dated-rules.fixtures.ts";

/**
 * The tests campaigns and offers pass alike, written once: who may do what
 * with a rule, how its status follows its days, and the list's order and
 * pages. Each kind's test file runs them with its own fixtures (a RuleKind);
 * what only one kind has stays in that kind's tests.
 */

/** A dated rule as these tests look at it. */
interface Rule {
  id: string;
}

type Caller = typeof platform;

/** One kind of rule as its fixtures make and read it, and the words the API uses of it. */
export interface RuleKind<R extends Rule> {
  /** The audit log's prefix and the tests' word: "campaign". */
  noun: string;
  /** With its article: "a campaign", "an offer". */
  a: string;
  url: string;
  /** Store A's name, as the list gives it. */
  storeAName: string;
  body: (change?: Record<string, unknown>) => object;
  added: (change?: Record<string, unknown>, who?: Caller) => Promise<R>;
  listed: (query?: string, who?: Caller) => Promise<{ items: R[]; total: number }>;
  /** How many there are: a refused write must leave them as they were. */
  count: () => Promise<unknown>;
  /** Changes to a rule's own fields, and which a store admin makes and then tries on a chain-wide one. */
  change: Record<string, unknown>;
  chainChange: Record<string, unknown>;
  /** A product made by the platform admin at `price` kr, and a body's change that puts only it in a rule. */
  productAt: (price: number, name?: string) => Promise<{ id: string; sku: string }>;
  onlyProduct: (id: string) => Record<string, unknown>;
}

const refused = (res: Awaited<ReturnType<Caller["post"]>>, detail: string) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ code: "forbidden", detail });
};
const NOT_THEIRS = "You do not manage this store";

/**
 * Who may do what with a kind of rule: platform admins everything; a store
 * admin reads the chain-wide rules and their own stores', and writes only
 * their own stores' (never a chain-wide one, never one moved to another store).
 */
export function describeAccess<R extends Rule>(kind: RuleKind<R>) {
  const { noun, a, url, body, added, listed } = kind;
  const many = `${noun}s`;
  const CHAIN_WIDE = `Only platform admins may set ${a} for every store`;

  describe("a store admin", () => {
    it(`sees the chain-wide ${many} and their own stores', never another store's`, async () => {
      const own = await added({ store_id: storeA });
      const chain = await added({ store_id: null });
      const other = await added({ store_id: storeB });
      const seen = (await listed("limit=100", storeAdmin)).items.map((r) => r.id);
      expect(seen).toEqual(expect.arrayContaining([own.id, chain.id]));
      expect(seen).not.toContain(other.id);
      // Their own store's filter: its rules and the chain-wide ones.
      const inA = (await listed(`store_id=${storeA}&limit=100`, storeAdmin)).items.map((r) => r.id);
      expect(inA).toEqual(expect.arrayContaining([own.id, chain.id]));
      expect(inA).not.toContain(other.id);
      refused(await storeAdmin.get(`${url}?store_id=${storeB}`), NOT_THEIRS);
    });

    it(`adds, changes and deletes ${a} of their own store, in the audit log under their name`, async () => {
      const created = await added({ store_id: storeA }, storeAdmin);
      const put = await storeAdmin.put(`${url}/${created.id}`, body(kind.change));
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ store_id: storeA, ...kind.change });
      expect((await storeAdmin.delete(`${url}/${created.id}`)).statusCode).toBe(204);
      expect((await auditOf(created.id)).map((row) => [row.action, row.actor_email, row.store_id])).toEqual([
        [`${noun}.create`, storeAdminEmail, storeA],
        [`${noun}.update`, storeAdminEmail, storeA],
        [`${noun}.delete`, storeAdminEmail, storeA],
      ]);
    });

    it(`may not add a chain-wide ${noun} or one of another store (403), and nothing is written`, async () => {
      const before = await kind.count();
      refused(await storeAdmin.post(url, body({ store_id: null })), CHAIN_WIDE);
      refused(await storeAdmin.post(url, body({ store_id: storeB })), NOT_THEIRS);
      expect(await kind.count()).toBe(before);
    });

    it(`may not change or delete a chain-wide ${noun} or another store's`, async () => {
      const chain = await added({ store_id: null });
      const other = await added({ store_id: storeB });
      refused(await storeAdmin.put(`${url}/${chain.id}`, body({ store_id: null, ...kind.chainChange })), CHAIN_WIDE);
      // Not even by taking it into their own store.
      refused(await storeAdmin.put(`${url}/${chain.id}`, body({ store_id: storeA })), CHAIN_WIDE);
      refused(await storeAdmin.put(`${url}/${other.id}`, body({ store_id: storeA })), NOT_THEIRS);
      refused(await storeAdmin.delete(`${url}/${chain.id}`), CHAIN_WIDE);
      refused(await storeAdmin.delete(`${url}/${other.id}`), NOT_THEIRS);
      const still = (await listed("limit=100")).items;
      expect(still.find((r) => r.id === chain.id)).toEqual(chain);
      expect(still.find((r) => r.id === other.id)).toEqual(other);
    });

    it(`may not move their own store's ${noun} to another store or make it chain-wide`, async () => {
      const own = await added({ store_id: storeA });
      refused(await storeAdmin.put(`${url}/${own.id}`, body({ store_id: storeB })), NOT_THEIRS);
      refused(await storeAdmin.put(`${url}/${own.id}`, body({ store_id: null })), CHAIN_WIDE);
      expect((await listed("limit=100")).items.find((r) => r.id === own.id)).toEqual(own);
      expect((await auditOf(own.id)).map((row) => row.action)).toEqual([`${noun}.create`]);
    });
  });

  describe("a platform admin", () => {
    it(`sees every ${noun}, and moves one between stores and to every store`, async () => {
      const own = await added({ store_id: storeB });
      expect((await listed("limit=100")).items.map((r) => r.id)).toContain(own.id);
      const moved = await platform.put(`${url}/${own.id}`, body({ store_id: storeA }));
      expect(moved.json()).toMatchObject({ store_id: storeA, store_name: kind.storeAName });
      const everywhere = await platform.put(`${url}/${own.id}`, body({ store_id: null }));
      expect(everywhere.json()).toMatchObject({ store_id: null, store_name: null });
    });
  });

  describe("nobody signed in", () => {
    it("is refused every route with 401", async () => {
      const made = await added();
      for (const res of [
        await nobody.get(url),
        await nobody.post(url, body()),
        await nobody.put(`${url}/${made.id}`, body()),
        await nobody.delete(`${url}/${made.id}`),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().detail).toBeTruthy();
      }
    });
  });
}

/** A rule's status on its own today: the store's calendar, Sweden's for a chain-wide rule. */
export function describeStatus<R extends Rule>({ noun, a, added }: RuleKind<R>) {
  describe(`${a}'s status`, () => {
    it("is active from its first day to its last, both counted; upcoming before, ended after", async () => {
      const cases = [
        [day(1), day(5), "upcoming"],
        [day(0), day(5), "active"],
        [day(-5), day(0), "active"],
        [day(0), day(0), "active"],
        [day(-5), day(-1), "ended"],
      ] as const;
      for (const [starts_on, ends_on, status] of cases) {
        expect(await added({ starts_on, ends_on }), `${starts_on} to ${ends_on}`).toMatchObject({ status });
      }
    });

    it(`is judged on the store's own calendar day, and on Sweden's for a chain-wide ${noun}`, async () => {
      // Kiritimati (UTC+14) is always a day or two ahead of Pago Pago (UTC-11).
      const ahead = await storeIn("Pacific/Kiritimati");
      const behind = await storeIn("Pacific/Pago_Pago");
      const now = new Date();
      const theirToday = calendarDay(now, "Pacific/Kiritimati");
      const days = { starts_on: theirToday, ends_on: day(3, theirToday) };
      expect(await added({ ...days, store_id: ahead })).toMatchObject({ status: "active" });
      expect(await added({ ...days, store_id: behind })).toMatchObject({ status: "upcoming" });
      const home = theirToday > homeToday(now) ? "upcoming" : "active";
      expect(await added({ ...days, store_id: null })).toMatchObject({ status: home });
      const ended = { starts_on: day(-3, theirToday), ends_on: day(-1, theirToday) };
      expect(await added({ ...ended, store_id: ahead })).toMatchObject({ status: "ended" });
      const pagoToday = calendarDay(now, "Pacific/Pago_Pago");
      expect(await added({ ...ended, store_id: behind })).toMatchObject({
        status: ended.ends_on < pagoToday ? "ended" : "active",
      });
    });
  });
}

/** The list puts the latest first day first and pages, the total in X-Total-Count. Inside a describe. */
export function itOrdersAndPages<R extends Rule>({ added, listed, productAt, onlyProduct }: RuleKind<R>) {
  it("puts the latest first day first, and pages with the total in X-Total-Count", async () => {
    const jam = await productAt(30, "Sylt");
    const made = [];
    for (const offset of [5, 1, 9, 3])
      made.push(await added({ ...onlyProduct(jam.id), starts_on: day(offset), ends_on: day(offset) }));
    const order = [made[2]!, made[0]!, made[3]!, made[1]!].map((r) => r.id);
    const first = await listed(`search=${jam.sku}&limit=3`);
    expect(first.total).toBe(4);
    expect(first.items.map((r) => r.id)).toEqual(order.slice(0, 3));
    const second = await listed(`search=${jam.sku}&limit=3&offset=3`);
    expect(second.total).toBe(4);
    expect(second.items.map((r) => r.id)).toEqual(order.slice(3));
    expect((await listed(`search=${jam.sku}&offset=10`)).items).toEqual([]);
  });
}

/**
 * Members-only rules through the API: the flag written, replaced both ways,
 * listed and in the audit log; left out it is false, and anything but true
 * or false is refused. `createdSummary` is the audit summary of the kind's
 * good body made members-only. How a cart prices them is pricing's.
 */
export function describeMembersOnly<R extends Rule & { members_only: boolean }>(
  { noun, a, url, body, added, listed, count }: RuleKind<R>,
  createdSummary: () => string,
) {
  const put = (id: string, change: Record<string, unknown>) => platform.put(`${url}/${id}`, body(change));
  const listedOne = async (id: string) => (await listed("limit=100")).items.find((r) => r.id === id);

  describe(`a members-only ${noun}`, () => {
    it("is for everyone when the body leaves members_only out, and for members when it says true", async () => {
      const everyone = await added();
      const members = await added({ members_only: true });
      expect(everyone.members_only).toBe(false);
      expect(members.members_only).toBe(true);
      expect(await listedOne(everyone.id)).toMatchObject({ members_only: false });
      expect(await listedOne(members.id)).toMatchObject({ members_only: true });
    });

    it("is turned on and off by a replacement, each change in the audit log; a body without it turns it off", async () => {
      const made = await added();
      const on = await put(made.id, { members_only: true });
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json()).toEqual({ ...made, members_only: true });
      expect(await listedOne(made.id)).toMatchObject({ members_only: true });

      const off = await put(made.id, { members_only: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toEqual(made);
      expect(await listedOne(made.id)).toMatchObject({ members_only: false });

      expect((await put(made.id, { members_only: true })).json()).toMatchObject({ members_only: true });
      // A PUT is a replacement: a body that leaves members_only out makes it false again.
      expect((await put(made.id, {})).json()).toMatchObject({ members_only: false });

      const audit = await auditOf(made.id);
      expect(audit.map((e) => e.action)).toEqual([`${noun}.create`, ...Array(4).fill(`${noun}.update`)]);
      expect(audit[1]).toMatchObject({ before: { members_only: false }, after: { members_only: true } });
      expect(audit[1]!.summary).toMatch(/" updated: members_only$/);
      expect(audit[2]).toMatchObject({ before: { members_only: true }, after: { members_only: false } });
      expect(audit[2]!.summary).toContain(`from ${day(0)} to ${day(6)}, members only" updated: members_only`);
    });

    it("says so in the audit summary of its creation", async () => {
      const made = await added({ members_only: true });
      const [created] = await auditOf(made.id);
      expect(created!.summary).toBe(createdSummary());
      expect(created!.after).toMatchObject({ members_only: true });
    });

    it(`may be set by a store admin for their store's ${noun}`, async () => {
      expect((await added({ members_only: true }, storeAdmin)).members_only).toBe(true);
    });

    it.each([["yes"], [1], [null], ["true"]])(
      `refuses members_only %j with 422 naming it, ${a} unchanged`,
      async (value) => {
        const made = await added();
        const before = await count();
        for (const res of [
          await platform.post(url, body({ members_only: value })),
          await put(made.id, { members_only: value }),
        ]) {
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json()).toMatchObject({
            code: "validation_error",
            detail: "members_only: members_only must be true or false",
          });
          expect(res.json().errors[0].path).toBe("members_only");
        }
        expect(await count()).toBe(before);
        expect(await listedOne(made.id)).toEqual(made);
      },
    );
  });
}
