import { analyticsSummarySchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopper, type TestShopper } from "../../test/factories.ts";
import { as, createDeviceKey, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

/**
 * An entry is a door opened for a visit (migration 0012's trigger on
 * door_opened_at): once per visit, whether the shopper is let in again on
 * it or not, and never for a code that did not open the door.
 */
let ctx: TestContext;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
});
afterAll(() => ctx?.close());

async function entryCode(who: TestShopper, storeId: string) {
  const res = await who.call({ method: "POST", url: "/api/v1/sessions/entry", payload: { store_id: storeId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { session_id: string; session_token: string; store_id: string };
}
const door = async (code: { session_id: string; session_token: string; store_id: string }, key: string) => {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/sessions/door/scan",
    headers: { authorization: `Device ${key}` },
    payload: code,
  });
  expect(res.statusCode, res.body).toBe(200);
};

describe("entries", () => {
  it("count a visit let in twice once, and a code cancelled before the door not at all", async () => {
    const store = (await admin.post("/api/v1/stores/", { name: "Entrébutiken" })).json() as {
      id: string;
      timezone: string;
    };
    const key = (await createDeviceKey(ctx.app, store.id, "door_scanner")).key;
    const who = await shopper(ctx.app, { card: null });
    const first = await entryCode(who, store.id);
    await door(first, key);
    // A way back in: a new code continues the same visit and opens the door again.
    const again = await entryCode(who, store.id);
    expect(again.session_id).toBe(first.session_id);
    await door(again, key);
    const other = await shopper(ctx.app, { card: null });
    const dropped = await entryCode(other, store.id);
    const cancel = await other.call({ method: "DELETE", url: `/api/v1/sessions/entry/${dropped.session_id}` });
    expect(cancel.statusCode, cancel.body).toBe(204);

    const day = (offset: number) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: store.timezone, year: "numeric", month: "2-digit", day: "2-digit" })
        .format(new Date(Date.now() + offset * 86_400_000))
        .slice(0, 10);
    const res = await admin.get(`/api/v1/admin/analytics/summary?from=${day(-1)}&to=${day(1)}&store_id=${store.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(analyticsSummarySchema.parse(res.json())).toMatchObject({ entries: 1, orders: 0, conversion: 0 });
  });
});
