import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, sql } from "../../db/client.ts";
import { product, shop, shopper } from "../../test/factories.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";
import { sweepAbandoned } from "./abandoned-sweep.ts";

/**
 * The sweep's two comparisons at the second: the store's limit itself
 * (last activity older than abandon_after_minutes), and the first pass that
 * only looks at visits quieter than the shortest limit a store may set
 * (5 minutes). Only a visit in the store is closed.
 */
let ctx: TestContext;
let admin: ReturnType<typeof as>;
let soap: Awaited<ReturnType<typeof product>>;

beforeAll(async () => {
  ctx = await createTestContext();
  const cookie = (await signIn(ctx.app)).cookie;
  admin = as(ctx.app, cookie);
  soap = await product(ctx.app, cookie, 24.5);
});
afterAll(() => ctx?.close());

async function storeWith(minutes?: number) {
  const id = (await admin.post("/api/v1/stores/", { name: `Svep ${minutes ?? "standard"}` })).json().id as string;
  if (minutes !== undefined) {
    const set = await admin.put(`/api/v1/settings/stores/${id}`, {
      settings: { store: { abandon_after_minutes: minutes } },
    });
    expect(set.statusCode, set.body).toBe(200);
  }
  return id;
}
/** A visit in `storeId` with soap in the cart. */
const inStore = async (storeId: string) =>
  shop(ctx.app, await shopper(ctx.app, { card: null }), storeId, [[soap.barcode, 1]]);
/** Two visits in the store, made quiet for a second less and a second more than `seconds`, just before a sweep. */
async function eitherSide(storeId: string, seconds: number) {
  const [under, over] = [await inStore(storeId), await inStore(storeId)];
  await quiet(under, seconds - 1);
  await quiet(over, seconds + 1);
  return { under, over };
}
const quiet = (visit: string, seconds: number) =>
  ctx.app.db.execute(
    sql`update shopping_sessions set last_activity_at = now() - make_interval(secs => ${seconds}) where id = ${visit}`,
  );
const stateOf = async (visit: string) =>
  (await queryRows<{ state: string }>(ctx.app.db, sql`select state from shopping_sessions where id = ${visit}`))[0]!
    .state;
/** Sweeps, answering which of `visits` it closed. */
async function sweep(visits: string[]) {
  const changes = await sweepAbandoned(ctx.app);
  expect(changes).not.toBe("skipped");
  const closed = new Set((changes as { session_id: string }[]).map((c) => c.session_id));
  return visits.filter((v) => closed.has(v));
}

describe("the abandoned-visit sweep, to the second", () => {
  it("at the default 30 minutes: quiet 29:59 stays in the store, 30:01 is left unpaid", async () => {
    const store = await storeWith();
    const { under, over } = await eitherSide(store, 30 * 60);
    expect(await sweep([under, over])).toEqual([over]);
    expect([await stateOf(under), await stateOf(over)]).toEqual(["in_store", "left_unpaid"]);
  });

  it("at the shortest limit a store may set (5 minutes): 4:59 stays, 5:01 is closed", async () => {
    const store = await storeWith(5);
    const { under, over } = await eitherSide(store, 5 * 60);
    expect(await sweep([under, over])).toEqual([over]);
    expect([await stateOf(under), await stateOf(over)]).toEqual(["in_store", "left_unpaid"]);
  });

  it("at the longest (1440 minutes): a day less a second stays, a day and a second is closed", async () => {
    const store = await storeWith(1440);
    const { under, over } = await eitherSide(store, 86_400);
    expect(await sweep([under, over])).toEqual([over]);
  });

  it("closes only visits in the store: one still at the door, or being charged, stays however quiet", async () => {
    const store = await storeWith(5);
    const who = await shopper(ctx.app, { card: null });
    const entry = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: store } });
    expect(entry.statusCode, entry.body).toBe(200);
    const atDoor = entry.json().session_id as string;
    await quiet(atDoor, 3 * 3600);
    const charging = await inStore(store);
    await ctx.app.db.execute(sql`update shopping_sessions set state = 'charging' where id = ${charging}`);
    await quiet(charging, 3 * 3600);
    const inside = await inStore(store);
    await quiet(inside, 3 * 3600);
    expect(await sweep([atDoor, charging, inside])).toEqual([inside]);
    expect([await stateOf(atDoor), await stateOf(charging)]).toEqual(["entering", "charging"]);
  });
});
