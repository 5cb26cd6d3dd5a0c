import { dashboardStatsSchema, type Store } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameras, customers, orders, shoppingSessions } from "../../db/schema/index.ts";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
});
afterAll(() => ctx.close());

const stats = async (who = admin) => {
  const res = await who.get("/api/v1/admin/dashboard");
  expect(res.statusCode).toBe(200);
  return dashboardStatsSchema.parse(res.json());
};
const create = async (name: string): Promise<Store> => (await admin.post("/api/v1/stores/", { name })).json();

describe("dashboard statistics", () => {
  it("is all zero on an empty platform", async () => {
    expect(await stats()).toEqual({
      total_stores: 0,
      active_stores: 0,
      inactive_stores: 0,
      total_products: 0,
      total_cameras: 0,
      cameras_offline: 0,
      total_users: 0,
      mrr: 0,
      total_transactions: 0,
      total_revenue: 0,
      active_modules: {},
    });
  });

  it("counts stores and sums enabled modules of active stores", async () => {
    const a = await create("A");
    const b = await create("B");
    const c = await create("C");
    await admin.post(`/api/v1/stores/${a.id}/modules/analytics`, { enabled: true });
    await admin.post(`/api/v1/stores/${b.id}/modules/analytics`, { enabled: true });
    await admin.post(`/api/v1/stores/${b.id}/modules/face_checkout`, { enabled: true });
    await admin.post(`/api/v1/stores/${c.id}/modules/door_access`, { enabled: true });
    await admin.put(`/api/v1/stores/${c.id}`, { is_active: false });

    const s = await stats();
    expect(s).toMatchObject({ total_stores: 3, active_stores: 2, inactive_stores: 1 });
    // 2 × Analytics 499 kr + Face checkout 999 kr; the inactive store's door access is not billed.
    expect(s.mrr).toBe(1997);
    expect(s.active_modules).toEqual({ Analytics: 2, Face_Checkout: 1 });

    await admin.post(`/api/v1/stores/${a.id}/modules/analytics`, { enabled: false });
    expect((await stats()).mrr).toBe(1498);
  });

  it("shows a store admin the figures of their own stores only", async () => {
    const mine = await create("Mine");
    await admin.post(`/api/v1/stores/${mine.id}/modules/door_access`, { enabled: true });
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
    expect(await stats(storeAdmin)).toMatchObject({
      total_stores: 1,
      active_stores: 1,
      mrr: 399,
      active_modules: { Door_Access: 1 },
    });
  });

  it("counts every customer for a platform admin, and a store admin only those who entered their stores", async () => {
    const before = (await stats()).total_users;
    const [mine, theirs] = [await create("Visited"), await create("Elsewhere")];
    const customer = async (tag: string) => {
      const [row] = await ctx.app.db
        .insert(customers)
        .values({ personalNumberHash: tag, personalNumberSealed: tag, name: tag, birthDate: "1990-01-01" })
        .returning();
      return row!.id;
    };
    // The fifth customer never makes an entry QR code at all.
    const [regular, oncer, other, neverIn] = await Promise.all(
      ["regular", "oncer", "other", "never-in", "no-visit"].map(customer),
    );
    const visit = (customerId: string, storeId: string, entered: boolean) =>
      ctx.app.db.insert(shoppingSessions).values({
        customerId,
        storeId,
        entryTokenHash: `${customerId}-${Math.random()}`,
        entryExpiresAt: new Date(Date.now() + 60_000),
        doorOpenedAt: entered ? new Date() : null,
      });
    await visit(regular!, mine.id, true);
    await visit(regular!, mine.id, true);
    await visit(oncer!, mine.id, true);
    await visit(other!, theirs.id, true);
    // A QR code made but never scanned at the door is no visit.
    await visit(neverIn!, mine.id, false);

    expect((await stats()).total_users).toBe(before + 5);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
    expect((await stats(storeAdmin)).total_users).toBe(2);
    const both = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id, theirs.id])).cookie);
    expect((await stats(both)).total_users).toBe(3);
    const none = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    expect((await stats(none)).total_users).toBe(0);
  });

  it("counts paid orders and their revenue: every store's for a platform admin, their own for a store admin", async () => {
    const before = await stats();
    const [mine, theirs] = [await create("Sold here"), await create("Sold there")];
    const order = (storeId: string, totalOre: number, state: "paid" | "declined" | "charging") =>
      ctx.app.db.insert(orders).values({ storeId, state, totalOre, vatOre: 0, storeName: "x" });
    await order(mine.id, 12_350, "paid");
    await order(mine.id, 4_990, "paid");
    await order(theirs.id, 10_000, "paid");
    // Not paid: neither a transaction nor revenue.
    await order(mine.id, 99_900, "declined");
    await order(mine.id, 55_500, "charging");

    const all = await stats();
    expect(all.total_transactions).toBe(before.total_transactions + 3);
    expect(all.total_revenue).toBeCloseTo(before.total_revenue + 273.4, 2);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
    expect(await stats(storeAdmin)).toMatchObject({ total_transactions: 2, total_revenue: 173.4 });
  });

  it("counts cameras and the active ones last seen offline: all for a platform admin, their stores' for a store admin", async () => {
    const before = await stats();
    const [mine, theirs] = [await create("Filmed here"), await create("Filmed there")];
    const camera = (storeId: string | null, status: string, isActive = true) =>
      ctx.app.db.insert(cameras).values({
        name: `${status} camera`,
        locationZone: "entrance",
        resolution: "1920x1080",
        fps: 15,
        storeId,
        status,
        isActive,
      });
    await camera(mine.id, "online");
    await camera(mine.id, "offline");
    await camera(mine.id, "offline", false); // switched off: not counted as offline
    await camera(theirs.id, "offline");
    await camera(null, "offline"); // not in a store yet

    const all = await stats();
    expect(all.total_cameras - before.total_cameras).toBe(5);
    expect(all.cameras_offline - before.cameras_offline).toBe(3);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
    expect(await stats(storeAdmin)).toMatchObject({ total_cameras: 3, cameras_offline: 1 });
  });

  it("answers 401 when signed out", async () => {
    const res = await as(ctx.app, null).get("/api/v1/admin/dashboard");
    expect(res.statusCode).toBe(401);
  });
});
