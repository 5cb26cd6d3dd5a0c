import { cartSchema, membershipSchema, receiptSchema } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { sql } from "../../db/client.ts";
import { shopper, type TestShopper, walkIn } from "../../test/factories.ts";
import { cartOf, clearOffers, offerWorldOfFile, postOffer, scan } from "./cart-offers.fixtures.ts";

/**
 * Members of the chain: joining in the app (the shopper's consent) and
 * leaving at once; members-only campaigns and offers apply to members and
 * are shown to others as what a member would pay ("Medlemspris").
 */
const world = offerWorldOfFile(async (w) => {
  await clearOffers(w);
  await w.ctx.app.db.execute(sql`delete from campaigns`);
});

const membership = async (who: TestShopper, member?: boolean) => {
  const res =
    member === undefined
      ? await who.call({ method: "GET", url: "/api/v1/profile/membership" })
      : await who.call({ method: "PUT", url: "/api/v1/profile/membership", payload: { member } });
  expect(res.statusCode, res.body).toBe(200);
  return membershipSchema.parse(res.json());
};

/** A members-only campaign on Bregott: 39,90 instead of 49,90, this month, every store. */
async function membersBregott() {
  await world.ctx.app.db.execute(
    sql`insert into campaigns (product_id, store_id, price_ore, starts_on, ends_on, members_only)
        values (${world.ids.butter}, null, 3990, '2026-11-01', '2026-11-30', true)`,
  );
}

describe("the membership", () => {
  it("is joined and left by the shopper; joining again keeps the first day", async () => {
    const who = await shopper(world.ctx.app);
    expect(await membership(who)).toEqual({ member: false, since: null });
    const joined = await membership(who, true);
    expect(joined.member).toBe(true);
    expect(joined.since).not.toBeNull();
    expect(await membership(who, true)).toEqual(joined);
    expect(await membership(who, false)).toEqual({ member: false, since: null });
    expect(await membership(who)).toEqual({ member: false, since: null });
  });

  it("refuses a body that says neither join nor leave, and changes nothing", async () => {
    const who = await shopper(world.ctx.app);
    for (const payload of [{}, { member: "yes" }, { member: null }]) {
      const res = await who.call({ method: "PUT", url: "/api/v1/profile/membership", payload });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().detail).toBe("member: member must be true (join) or false (leave)");
    }
    expect(await membership(who)).toEqual({ member: false, since: null });
  });

  it("is each shopper's own", async () => {
    const [ann, bo] = [await shopper(world.ctx.app), await shopper(world.ctx.app)];
    await membership(ann, true);
    expect((await membership(bo)).member).toBe(false);
  });
});

describe("members' prices", () => {
  it("a member's scan takes the members-only campaign; a non-member's shows it as Medlemspris and pays the shelf", async () => {
    await membersBregott();
    const member = await shopper(world.ctx.app);
    await membership(member, true);
    const memberVisit = await walkIn(world.ctx.app, member, world.lund);
    expect((await scan(member, memberVisit, world.codes.butter)).item).toMatchObject({
      unit_price: 39.9,
      ordinary_unit_price: 49.9,
      member_unit_price: null,
    });
    expect(await cartOf(member, memberVisit)).toMatchObject({ total: 39.9, member_total: null });

    const other = await shopper(world.ctx.app);
    const otherVisit = await walkIn(world.ctx.app, other, world.lund);
    const answer = await scan(other, otherVisit, world.codes.butter);
    expect(answer.item).toMatchObject({ unit_price: 49.9, ordinary_unit_price: null, member_unit_price: 39.9 });
    expect(answer).toMatchObject({ total: 49.9, member_total: 39.9 });
  });

  it("an ordinary campaign below the members' one leaves nothing to show", async () => {
    await membersBregott();
    await world.ctx.app.db.execute(
      sql`insert into campaigns (product_id, store_id, price_ore, starts_on, ends_on)
          values (${world.ids.butter}, null, 3490, '2026-11-01', '2026-11-30')`,
    );
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    const answer = await scan(who, visit, world.codes.butter);
    expect(answer.item).toMatchObject({ unit_price: 34.9, member_unit_price: null });
    expect(answer.member_total).toBeNull();
  });

  it("joining mid-visit gives the lines already scanned the members' price; the kvitto charges it", async () => {
    await membersBregott();
    const who = await shopper(world.ctx.app);
    const visit = await walkIn(world.ctx.app, who, world.lund);
    await scan(who, visit, world.codes.butter);
    await scan(who, visit, world.codes.juice);
    await membership(who, true);
    const cart = await cartOf(who, visit);
    expect(cart.items.map((i) => [i.unit_price, i.ordinary_unit_price, i.member_unit_price])).toEqual([
      [39.9, 49.9, null],
      [19.9, null, null],
    ]);
    expect(cart).toMatchObject({ total: 59.8, member_total: null });
    // Leaving keeps what the cart already says, as a campaign that ends would.
    await membership(who, false);
    expect((await cartOf(who, visit)).total).toBe(59.8);
    const paid = await who.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: who.id } });
    expect(receiptSchema.parse(paid.json().receipt).total).toBe(59.8);
  });

  it("a members-only 3 för 2 counts for a member; a non-member's cart shows what a member would pay", async () => {
    const offer = await postOffer(world, { label: "3 för 2 Bregott", product_ids: [world.ids.butter] });
    await world.ctx.app.db.execute(sql`update offers set members_only = true where id = ${offer}`);
    const other = await shopper(world.ctx.app);
    const otherVisit = await walkIn(world.ctx.app, other, world.lund);
    for (let i = 0; i < 3; i++) await scan(other, otherVisit, world.codes.butter);
    expect(cartSchema.parse(await cartOf(other, otherVisit))).toMatchObject({
      discounts: [],
      total: 149.7,
      member_total: 99.8,
    });

    const member = await shopper(world.ctx.app);
    await membership(member, true);
    const memberVisit = await walkIn(world.ctx.app, member, world.lund);
    for (let i = 0; i < 3; i++) await scan(member, memberVisit, world.codes.butter);
    const paid = await member.call({ method: "POST", url: "/api/v1/checkout", payload: { user_id: member.id } });
    expect(receiptSchema.parse(paid.json().receipt)).toMatchObject({
      discounts: [{ label: "3 för 2 Bregott", amount: 49.9 }],
      total: 99.8,
    });
  });
});
