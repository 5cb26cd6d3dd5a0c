import { errorSchema } from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../db/schema/index.ts";
import { as } from "../../test/harness.ts";
import { ctx, list, openAuditTests, platform, storeAdmin } from "./audit.fixtures.ts";

beforeAll(openAuditTests);
afterAll(() => ctx.close());

describe("reading the log", () => {
  const kind = "audit_test_fixture";
  const times = [
    "2026-03-01T23:59:59.999Z",
    "2026-03-02T00:00:00.000Z",
    "2026-03-02T12:00:00.000Z",
    "2026-03-03T00:00:00.000Z",
  ];
  const other = "00000000-0000-4000-8000-000000000001";

  beforeAll(async () => {
    await ctx.app.db.insert(auditLog).values(
      times.map((t, i) => ({
        occurredAt: new Date(t),
        actorEmail: i === 0 ? "Someone@Example.se" : "other@example.se",
        action: i % 2 === 0 ? "fixture.update" : "fixture.delete",
        entityType: kind,
        entityId: `fx-${i}`,
        storeId: i === 3 ? other : null,
        summary: ["100% sure", "100 percent", "a_b", "axb"][i]!,
      })),
    );
  });

  const ids = async (query: string) => (await list(`?entity_type=${kind}&${query}`)).items.map((e) => e.entity_id);

  it("lists newest first with the total in X-Total-Count", async () => {
    const { items, total } = await list(`?entity_type=${kind}`);
    expect(total).toBe(4);
    expect(items.map((e) => e.entity_id)).toEqual(["fx-3", "fx-2", "fx-1", "fx-0"]);
  });

  it("searches literally: % and _ match only themselves", async () => {
    expect(await ids("search=100%25")).toEqual(["fx-0"]);
    expect(await ids("search=a_b")).toEqual(["fx-2"]);
    expect(await ids("search=FX-1")).toEqual(["fx-1"]);
    expect(await ids("search=someone%40")).toEqual(["fx-0"]);
    expect(await ids("search=fixture.delete")).toEqual(["fx-3", "fx-1"]);
  });

  it("filters by exact action or a prefix, actor, entity and store", async () => {
    expect(await ids("action=fixture.update")).toEqual(["fx-2", "fx-0"]);
    expect(await ids("action=fixture.")).toEqual(["fx-3", "fx-2", "fx-1", "fx-0"]);
    expect(await ids("action=fixture")).toEqual([]);
    expect(await ids("actor=someone%40example.se")).toEqual(["fx-0"]);
    expect(await ids("actor=someone%40example")).toEqual([]);
    expect(await ids("entity_id=fx-2")).toEqual(["fx-2"]);
    expect(await ids(`store_id=${other}`)).toEqual(["fx-3"]);
  });

  it("takes from and to inclusive: a date is its whole UTC day, a time its own millisecond", async () => {
    expect(await ids("from=2026-03-02&to=2026-03-02")).toEqual(["fx-2", "fx-1"]);
    expect(await ids("to=2026-03-01")).toEqual(["fx-0"]);
    expect(await ids("from=2026-03-03")).toEqual(["fx-3"]);
    expect(await ids("from=2026-03-02T00:00:00.000Z&to=2026-03-02T12:00:00.000Z")).toEqual(["fx-2", "fx-1"]);
    expect(await ids("from=2026-03-02T00:00:00.001Z&to=2026-03-02T11:59:59.999Z")).toEqual([]);
    expect(await ids("from=2026-03-02T01:00:00%2B01:00")).toEqual(["fx-3", "fx-2", "fx-1"]);
    const backwards = await platform.get("/api/v1/admin/audit?from=2026-03-03&to=2026-03-02");
    expect(backwards.statusCode).toBe(422);
    expect(errorSchema.parse(backwards.json()).detail).toMatch(/to must not be before from/);
    expect(backwards.json().errors).toEqual([{ path: "to", message: "to must not be before from" }]);
  });

  it("pages with limit 1 to 100 and offset", async () => {
    expect(await ids("limit=1")).toEqual(["fx-3"]);
    expect(await ids("limit=2&offset=2")).toEqual(["fx-1", "fx-0"]);
    expect(await ids("offset=4")).toEqual([]);
    expect((await list(`?entity_type=${kind}&limit=100`)).items).toHaveLength(4);
    for (const bad of ["limit=0", "limit=101", "offset=-1", "from=yesterday", "store_id=x", "action=DROP%20TABLE"]) {
      const res = await platform.get(`/api/v1/admin/audit?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(errorSchema.parse(res.json()).detail).toBeTruthy();
    }
  });

  it("defaults to 50 a page", async () => {
    await ctx.app.db.insert(auditLog).values(
      Array.from({ length: 51 }, (_, i) => ({
        actorEmail: "bulk@example.se",
        action: "bulk.make",
        entityType: "bulk",
        summary: `b${i}`,
      })),
    );
    const { items, total } = await list("?entity_type=bulk");
    expect([items.length, total]).toEqual([50, 51]);
  });

  it("is for platform admins only: store admins 403, anonymous 401, an unknown id 404", async () => {
    const { items } = await list(`?entity_type=${kind}&limit=1`);
    for (const url of ["/api/v1/admin/audit", `/api/v1/admin/audit/${items[0]!.id}`]) {
      const refused = await storeAdmin.get(url);
      expect([refused.statusCode, refused.json().detail]).toEqual([403, "Only platform admins may see the audit log"]);
      expect((await as(ctx.app, null).get(url)).statusCode).toBe(401);
    }
    const unknown = await platform.get("/api/v1/admin/audit/999999999");
    expect([unknown.statusCode, unknown.json().detail]).toEqual([404, "Audit entry 999999999 not found"]);
    expect((await platform.get("/api/v1/admin/audit/abc")).statusCode).toBe(400);
  });
});
