import { randomUUID } from "node:crypto";
import {
  errorSchema,
  STORE_LIMITS,
  type Store,
  type StoreModule,
  storeModuleSchema,
  storeSchema,
} from "@glide/contracts";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/client.ts";
import {
  as,
  createTestContext,
  signIn,
  TEST_DATABASE_URL,
  type TestContext,
  waitingForLocks,
} from "../../test/harness.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;
let adminEmail: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const session = await signIn(ctx.app);
  adminEmail = session.email;
  admin = as(ctx.app, session.cookie);
});
afterAll(() => ctx.close());

async function create(body: Record<string, unknown>): Promise<Store> {
  const res = await admin.post("/api/v1/stores/", body);
  expect(res.statusCode, res.body).toBe(201);
  return storeSchema.parse(res.json());
}

type AuditRow = {
  actor_email: string;
  action: string;
  entity_type: string;
  store_id: string | null;
  summary: string;
  before: unknown;
  after: unknown;
};
/** What the audit log holds about one store, oldest first. */
const auditOf = (storeId: string) =>
  queryRows<AuditRow>(
    ctx.app.db,
    sql`select actor_email, action, entity_type, store_id, summary, before, after from audit_log
        where entity_id = ${storeId} order by id`,
  );

describe("creating stores", () => {
  it("applies the defaults and returns the full store", async () => {
    const store = await create({ name: "  Glide Test  " });
    expect(store).toMatchObject({
      name: "Glide Test",
      country: "SE",
      timezone: "Europe/Stockholm",
      is_active: true,
      settings: { language: "sv-SE", currency: "SEK", vat_rate: 0.25, modules: {} },
      custom_settings: {},
      size_sqm: null,
    });
    expect(Date.parse(store.created_at)).not.toBeNaN();
  });

  it("keeps every field of the four tabs, with empty strings stored as null", async () => {
    const store = await create({
      name: "Glide Full",
      legal_name: "Glide Full AB",
      organization_number: "5560360793",
      vat_number: "SE556036079301",
      store_type: "grocery",
      size_sqm: 250,
      description: "Big one",
      address: "Storgatan 1",
      city: "Lund",
      postal_code: "222 22",
      country: "SE",
      timezone: "Europe/Stockholm",
      phone: "046-12 34 56",
      email: "lund@glide.example",
      website: "https://glide.example/lund",
      contact_person: "Per",
      contact_title: "",
      settings: { language: "en-GB", currency: "EUR", vat_rate: 0.1234 },
    });
    expect(store).toMatchObject({
      organization_number: "556036-0793",
      size_sqm: 250,
      contact_title: null,
      website: "https://glide.example/lund",
      settings: { language: "en-GB", currency: "EUR", vat_rate: 0.1234 },
    });
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name: Store name is required"],
    [{ name: "x", settings: { vat_rate: 1.5 } }, "settings.vat_rate"],
    [{ name: "x", settings: { vat_rate: -0.01 } }, "settings.vat_rate"],
    [{ name: "x", settings: { vat_rate: 0.12345 } }, "settings.vat_rate"],
    [{ name: "x", size_sqm: 12.5 }, "size_sqm"],
    [{ name: "x", size_sqm: "12" }, "size_sqm"],
    [{ name: "x", email: "not-an-email" }, "email"],
    [{ name: "x", website: "javascript:alert(1)" }, "website"],
    [{ name: "x", country: "XX" }, "country"],
    [{ name: "x", timezone: "Mars/Olympus" }, "timezone"],
    [{ name: "x", settings: { currency: "BTC" } }, "settings.currency"],
    [{ name: "x", organization_number: "556036-0794" }, "organization_number"],
    [{ name: "x", organization_number: "12345" }, "organization_number"],
  ])("rejects %j with 422 naming %s", async (body, field) => {
    const res = await admin.post("/api/v1/stores/", body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "validation_error" });
    expect(res.json().detail).toContain(field);
  });

  it("lists every problem with words a form can show beside its field", async () => {
    const res = await admin.post("/api/v1/stores/", {
      name: "x".repeat(5000),
      size_sqm: 12.7,
      settings: { vat_rate: 1.5 },
    });
    expect(res.statusCode).toBe(422);
    const body = errorSchema.parse(res.json());
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Must be at most 200 characters" },
        { path: "size_sqm", message: "Size must be a whole number of square metres: round 12.7 to 13" },
        { path: "settings.vat_rate", message: "VAT rate must be between 0 and 100 %" },
      ]),
    );
    expect(body.errors).toHaveLength(3);
    expect(body.detail).toMatch(/\(and 2 more problems\)$/);
  });

  it("names the field of a wrong organisation number, so the form can mark it", async () => {
    const res = await admin.post("/api/v1/stores/", { name: "x", organization_number: "556036-0794" });
    expect(res.statusCode).toBe(422);
    expect(errorSchema.parse(res.json()).errors).toEqual([
      {
        path: "organization_number",
        message: "Not a valid Swedish organisation number: use NNNNNN-NNNN with a correct check digit",
      },
    ]);
  });

  it("takes the longest name and a whole size, and refuses one character more", async () => {
    const longest = await create({ name: "n".repeat(STORE_LIMITS.name), size_sqm: 13 });
    expect(longest.size_sqm).toBe(13);
    expect((await admin.post("/api/v1/stores/", { name: "n".repeat(STORE_LIMITS.name + 1) })).statusCode).toBe(422);
  });

  it("checks the organisation number only for Swedish stores", async () => {
    const store = await create({ name: "Oslo", country: "NO", organization_number: "923 609 016" });
    expect(store.organization_number).toBe("923 609 016");
    const res = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE" });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContain("organization_number");
  });

  it("writes nothing when a request is rejected", async () => {
    const before = (await admin.get("/api/v1/stores/")).json().length;
    await admin.post("/api/v1/stores/", { name: "Half", organization_number: "556036-0794" });
    expect((await admin.get("/api/v1/stores/")).json()).toHaveLength(before);
  });
});

describe("listing and searching", () => {
  let lund: Store;
  beforeAll(async () => {
    lund = await create({
      name: "Sökbar Butik",
      city: "Örebro",
      email: "orebro@glide.example",
      organization_number: "556701-2348",
    });
  });

  it.each([["sökbar"], ["ÖREBRO"], ["orebro@glide"], ["556701-2348"], ["5567012348"]])(
    "finds the store by %s",
    async (q) => {
      const res = await admin.get(`/api/v1/stores/?search=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      const found = z.array(storeSchema).parse(res.json());
      expect(found.map((s) => s.id)).toContain(lund.id);
    },
  );

  it("returns an empty array when nothing matches, and treats % literally", async () => {
    expect((await admin.get("/api/v1/stores/?search=nothing-like-this")).json()).toEqual([]);
    expect((await admin.get("/api/v1/stores/?search=%25")).json()).toEqual([]);
  });

  it("pages with limit and offset and reports the total", async () => {
    const all: Store[] = (await admin.get("/api/v1/stores/")).json();
    const first = await admin.get("/api/v1/stores/?limit=2");
    expect(first.headers["x-total-count"]).toBe(String(all.length));
    expect(first.json().map((s: Store) => s.id)).toEqual(all.slice(0, 2).map((s) => s.id));
    const next = await admin.get("/api/v1/stores/?limit=2&offset=2");
    expect(next.json().map((s: Store) => s.id)).toEqual(all.slice(2, 4).map((s) => s.id));
    expect((await admin.get("/api/v1/stores/?limit=0")).statusCode).toBe(400);
  });

  it("accepts the path with or without the trailing slash", async () => {
    expect((await admin.get("/api/v1/stores")).statusCode).toBe(200);
  });
});

describe("updating and deleting", () => {
  it("updates fields and leaves the others alone", async () => {
    const store = await create({ name: "Före", city: "Kiruna", settings: { vat_rate: 0.12 } });
    const res = await admin.put(`/api/v1/stores/${store.id}`, { name: "Efter", settings: { language: "fi-FI" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Efter",
      city: "Kiruna",
      settings: { language: "fi-FI", vat_rate: 0.12 },
    });
  });

  it("activates and deactivates with only is_active", async () => {
    const store = await create({ name: "Toggle" });
    const off = await admin.put(`/api/v1/stores/${store.id}`, { is_active: false });
    expect(off.json()).toMatchObject({ is_active: false, name: "Toggle" });
    const on = await admin.put(`/api/v1/stores/${store.id}/`, { is_active: true });
    expect(on.json().is_active).toBe(true);
  });

  it("deletes a store and then answers 404 for it", async () => {
    const store = await create({ name: "Gone" });
    expect((await admin.delete(`/api/v1/stores/${store.id}`)).statusCode).toBe(204);
    const again = await admin.delete(`/api/v1/stores/${store.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toContain(store.id);
    expect((await admin.put(`/api/v1/stores/${store.id}`, { name: "x" })).statusCode).toBe(404);
  });

  it("answers 400 naming the id for a malformed id", async () => {
    const res = await admin.put("/api/v1/stores/not-a-uuid", { name: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("id");
  });
});

describe("modules", () => {
  it("lists the catalogue with prices in kronor and toggles a module", async () => {
    const store = await create({ name: "Moduler" });
    const list = z.array(storeModuleSchema).parse((await admin.get(`/api/v1/stores/${store.id}/modules`)).json());
    const ids = list.map((m) => m.module_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "ai_product_recognition",
        "face_checkout",
        "age_verification",
        "analytics",
        "door_access",
      ]),
    );
    expect(list.every((m) => !m.enabled && m.price_per_month > 0)).toBe(true);

    const res = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {
      module_id: "analytics",
      enabled: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ module_id: "analytics", enabled: true, price_per_month: 499 });
    const after: StoreModule[] = (await admin.get(`/api/v1/stores/${store.id}/modules`)).json();
    expect(after.find((m) => m.module_id === "analytics")?.enabled).toBe(true);
    const stores: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(stores.find((s) => s.id === store.id)?.settings.modules).toEqual({ analytics: { enabled: true } });

    await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, { enabled: false });
    const off: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(off.find((s) => s.id === store.id)?.settings.modules).toEqual({ analytics: { enabled: false } });
  });

  it("rejects unknown modules, unknown stores, a mismatched module_id and a missing flag", async () => {
    const store = await create({ name: "Moduler 2" });
    expect((await admin.post(`/api/v1/stores/${store.id}/modules/teleport`, { enabled: true })).statusCode).toBe(404);
    expect(
      (await admin.post("/api/v1/stores/00000000-0000-4000-8000-000000000000/modules/analytics", { enabled: true }))
        .statusCode,
    ).toBe(404);
    const mismatch = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {
      module_id: "face_checkout",
      enabled: true,
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toContain("module_id");
    const missing = await admin.post(`/api/v1/stores/${store.id}/modules/analytics`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail).toContain("enabled");
  });
});

describe("who may do what", () => {
  let mine: Store;
  let other: Store;
  let storeAdmin: ReturnType<typeof as>;
  beforeAll(async () => {
    mine = await create({ name: "Min butik" });
    other = await create({ name: "Annans butik" });
    storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [mine.id])).cookie);
  });

  it("answers 401 to anonymous callers on every route", async () => {
    const anon = as(ctx.app, null);
    const calls = [
      anon.get("/api/v1/stores/"),
      anon.post("/api/v1/stores/", { name: "x" }),
      anon.put(`/api/v1/stores/${mine.id}`, { name: "x" }),
      anon.delete(`/api/v1/stores/${mine.id}`),
      anon.get(`/api/v1/stores/${mine.id}/modules`),
      anon.post(`/api/v1/stores/${mine.id}/modules/analytics`, { enabled: true }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: "Sign in required", code: "unauthorized" });
    }
  });

  it("shows a store admin only their stores", async () => {
    const list: Store[] = (await storeAdmin.get("/api/v1/stores/")).json();
    expect(list.map((s) => s.id)).toEqual([mine.id]);
  });

  it("lets a store admin edit details of their store but nothing else", async () => {
    expect((await storeAdmin.put(`/api/v1/stores/${mine.id}`, { phone: "08-1" })).json().phone).toBe("08-1");
    expect((await storeAdmin.get(`/api/v1/stores/${mine.id}/modules`)).statusCode).toBe(200);

    const denied = [
      storeAdmin.put(`/api/v1/stores/${other.id}`, { phone: "08-2" }),
      storeAdmin.get(`/api/v1/stores/${other.id}/modules`),
      storeAdmin.put(`/api/v1/stores/${mine.id}`, { is_active: false }),
      storeAdmin.post("/api/v1/stores/", { name: "New" }),
      storeAdmin.delete(`/api/v1/stores/${mine.id}`),
      storeAdmin.post(`/api/v1/stores/${mine.id}/modules/analytics`, { enabled: true }),
    ];
    for (const res of await Promise.all(denied)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().detail).toBeTruthy();
    }
    const otherNow: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(otherNow.find((s) => s.id === other.id)?.phone).toBeNull();
    expect(otherNow.find((s) => s.id === mine.id)?.is_active).toBe(true);
  });
});

describe("searching and the edges of permission", () => {
  it("matches % and _ literally and ignores surrounding spaces", async () => {
    const hundred = await create({ name: "Hundra 100% Ekologiskt" });
    const under = await create({ name: "Butik_Understreck" });
    await create({ name: "Hundra 1000 Ekologiskt" });
    // Where _ matched any one character, "k_U" would find this store too.
    await create({ name: "Butik Umeå" });
    const names = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${encodeURIComponent(search)}`)).json() as Store[]).map((s) => s.id);
    expect(await names("100%")).toEqual([hundred.id]);
    expect(await names("k_U")).toEqual([under.id]);
    expect(await names("  k_U  ")).toEqual([under.id]);
  });

  it("finds an organisation number across its hyphen from three digits on", async () => {
    const store = await create({ name: "Orgnummer", organization_number: "556677-8899", country: "SE" });
    const ids = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${search}`)).json() as Store[]).map((s) => s.id);
    expect(await ids("7788")).toContain(store.id);
    expect(await ids("778")).toContain(store.id);
  });

  it("shows a store admin without stores an empty list", async () => {
    const lonely = as(ctx.app, (await signIn(ctx.app, "store_admin", [])).cookie);
    const res = await lonely.get("/api/v1/stores/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers["x-total-count"]).toBe("0");
  });

  it("answers 404 for an unknown store or module, and tells a store admin what only platform admins may do", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await admin.get(`/api/v1/stores/${unknown}`)).statusCode).toBe(404);
    expect((await admin.put(`/api/v1/stores/${unknown}`, { name: "x" })).statusCode).toBe(404);
    const store = await create({ name: "Moduler" });
    const noModule = await admin.post(`/api/v1/stores/${store.id}/modules/no_such_module`, { enabled: true });
    expect(noModule.statusCode).toBe(404);
    const storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store.id])).cookie);
    const refused = await storeAdmin.post("/api/v1/stores/", { name: "Egen" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/^Only platform admins may /);
  });
});

describe("what only platform admins may do, and unknown ids", () => {
  const unknown = randomUUID();
  let store: Store;
  let storeAdmin: ReturnType<typeof as>;
  beforeAll(async () => {
    store = await create({ name: "Behörighet" });
    storeAdmin = as(ctx.app, (await signIn(ctx.app, "store_admin", [store.id])).cookie);
  });

  it.each([
    ["create stores", () => storeAdmin.post("/api/v1/stores/", { name: "Egen" })],
    ["activate or deactivate stores", () => storeAdmin.put(`/api/v1/stores/${store.id}`, { is_active: false })],
    ["delete stores", () => storeAdmin.delete(`/api/v1/stores/${store.id}`)],
    ["change store modules", () => storeAdmin.post(`/api/v1/stores/${store.id}/modules/analytics`, { enabled: true })],
  ])("tells a store admin that only platform admins may %s", async (what, call) => {
    const res = await call();
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: `Only platform admins may ${what}`, code: "forbidden" });
  });

  it("changes nothing a store admin was refused", async () => {
    const list: Store[] = (await admin.get("/api/v1/stores/")).json();
    expect(list.find((s) => s.id === store.id)).toMatchObject({ is_active: true, settings: { modules: {} } });
    expect(await auditOf(store.id)).toHaveLength(1); // its creation only
  });

  it("answers 404 naming the store to an edit, a delete and the module routes of an unknown store", async () => {
    const notFound = { detail: `Store ${unknown} not found`, code: "not_found" };
    const calls = [
      await admin.put(`/api/v1/stores/${unknown}`, { name: "x" }),
      await admin.put(`/api/v1/stores/${unknown}`, {}),
      await admin.delete(`/api/v1/stores/${unknown}`),
      await admin.get(`/api/v1/stores/${unknown}/modules`),
      await admin.post(`/api/v1/stores/${unknown}/modules/analytics`, { enabled: true }),
    ];
    for (const res of calls) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    expect(await auditOf(unknown)).toEqual([]);
  });

  it("answers 404 naming the module to a change of an unknown module", async () => {
    const res = await admin.post(`/api/v1/stores/${store.id}/modules/teleport`, { enabled: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "Module teleport not found", code: "not_found" });
    expect(await auditOf(store.id)).toHaveLength(1);
  });
});

describe("the audit log", () => {
  it("logs creating, editing and deleting a store as entries about that store", async () => {
    const store = await create({ name: "Loggad" });
    const edited = await admin.put(`/api/v1/stores/${store.id}`, { name: "Omdöpt", city: "Visby" });
    expect(edited.statusCode).toBe(200);
    expect((await admin.delete(`/api/v1/stores/${store.id}`)).statusCode).toBe(204);
    const entry = { actor_email: adminEmail, entity_type: "store", store_id: store.id };
    expect(await auditOf(store.id)).toEqual([
      { ...entry, action: "store.create", summary: 'Store "Loggad" created', before: null, after: store },
      {
        ...entry,
        action: "store.update",
        summary: 'Store "Omdöpt" updated: name (was "Loggad"), city',
        before: store,
        after: edited.json(),
      },
      { ...entry, action: "store.delete", summary: 'Store "Omdöpt" deleted', before: edited.json(), after: null },
    ]);
  });

  it("logs turning a module on and off with its name and the store's, and nothing when it stays as it was", async () => {
    const store = await create({ name: "Modullogg" });
    const url = `/api/v1/stores/${store.id}/modules/analytics`;
    expect((await admin.post(url, { enabled: false })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: true })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: true })).statusCode).toBe(200);
    expect((await admin.post(url, { enabled: false })).statusCode).toBe(200);
    const entry = { actor_email: adminEmail, entity_type: "store", store_id: store.id };
    expect((await auditOf(store.id)).slice(1)).toEqual([
      {
        ...entry,
        action: "store.module_enable",
        summary: 'Module "Analytics" enabled for store "Modullogg"',
        before: { module_id: "analytics", enabled: false },
        after: { module_id: "analytics", enabled: true },
      },
      {
        ...entry,
        action: "store.module_disable",
        summary: 'Module "Analytics" disabled for store "Modullogg"',
        before: { module_id: "analytics", enabled: true },
        after: { module_id: "analytics", enabled: false },
      },
    ]);
  });

  it("answers an edit that changes nothing with the store as it is, and logs nothing", async () => {
    const store = await create({ name: "Orörd", city: "Luleå" });
    const empty = await admin.put(`/api/v1/stores/${store.id}`, {});
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual(store);
    const same = await admin.put(`/api/v1/stores/${store.id}`, { name: "Orörd", city: "Luleå" });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual(store);
    expect((await auditOf(store.id)).map((e) => e.action)).toEqual(["store.create"]);
  });
});

describe("the organisation number when the country changes", () => {
  it("checks the new number, not the old one, when both change to a Swedish store", async () => {
    const store = await create({ name: "Flyttar", country: "NO", organization_number: "923 609 016" });
    const res = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE", organization_number: "5560360793" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ country: "SE", organization_number: "556036-0793" });
  });

  it("leaves a stored number alone when an edit changes neither it nor the country", async () => {
    const store = await create({ name: "Gammalt nummer" });
    // A number stored before check digits were checked (no request can store it now).
    await queryRows(ctx.app.db, sql`update stores set organization_number = '556036-0794' where id = ${store.id}`);
    const res = await admin.put(`/api/v1/stores/${store.id}`, { phone: "0980-123" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ phone: "0980-123", organization_number: "556036-0794" });
    const moved = await admin.put(`/api/v1/stores/${store.id}`, { country: "SE" });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors).toEqual([
      {
        path: "organization_number",
        message: "Not a valid Swedish organisation number: use NNNNNN-NNNN with a correct check digit",
      },
    ]);
  });
});

describe("searching by organisation number", () => {
  it("finds the number written with a space or a slash instead of the hyphen", async () => {
    const store = await create({ name: "Mellanslag", organization_number: "559012-3450" });
    const ids = async (search: string) =>
      ((await admin.get(`/api/v1/stores/?search=${encodeURIComponent(search)}`)).json() as Store[]).map((s) => s.id);
    expect(await ids("559012 3450")).toEqual([store.id]);
    expect(await ids("559012/3450")).toEqual([store.id]);
  });
});

/**
 * Two deletes at the same moment. A row lock of our own keeps the request's delete waiting after it
 * has read the store; the store is then deleted by someone else. PGlite runs one transaction at a
 * time, so this can only happen on PostgreSQL.
 */
describe.skipIf(!TEST_DATABASE_URL)("two deletes at the same moment (PostgreSQL)", () => {
  it("answers 404 and logs nothing when the store is deleted while the request deletes it", async () => {
    const store = await create({ name: "Dubbelraderad" });
    const other = new pg.Client({ connectionString: ctx.databaseUrl });
    await other.connect();
    await other.query("begin");
    await other.query("select id from stores where id = $1 for update", [store.id]);
    const res = admin.delete(`/api/v1/stores/${store.id}`);
    await waitingForLocks(ctx.app.db, 1);
    await other.query("delete from stores where id = $1", [store.id]);
    await other.query("commit");
    await other.end();
    expect((await res).json()).toEqual({ detail: `Store ${store.id} not found`, code: "not_found" });
    expect((await auditOf(store.id)).map((e) => e.action)).toEqual(["store.create"]);
  });
});

describe("a new store's country, time zone, currency and VAT rate", () => {
  const setting = async (category: string, key: string, value: unknown) => {
    const res = await admin.put(`/api/v1/settings/${category}/${key}`, { value });
    expect(res.statusCode, res.body).toBe(200);
  };
  const defaultsOf = (store: Store) => ({
    country: store.country,
    timezone: store.timezone,
    language: store.settings.language,
    currency: store.settings.currency,
    vat_rate: store.settings.vat_rate,
  });

  it("takes another country's time zone, currency and VAT rate from the settings", async () => {
    expect(defaultsOf(await create({ name: "Oslo", country: "NO" }))).toEqual({
      country: "NO",
      timezone: "Europe/Oslo",
      language: "sv-SE",
      currency: "NOK",
      vat_rate: 0.25,
    });
    expect(defaultsOf(await create({ name: "Berlin", country: "DE" }))).toEqual({
      country: "DE",
      timezone: "Europe/Berlin",
      language: "sv-SE",
      currency: "EUR",
      vat_rate: 0.19,
    });
    // No VAT is a rate too, not a missing one.
    expect(defaultsOf(await create({ name: "New York", country: "US" }))).toEqual({
      country: "US",
      timezone: "America/New_York",
      language: "sv-SE",
      currency: "USD",
      vat_rate: 0,
    });
  });

  describe("with default settings of its own", () => {
    let built: Record<string, { category: string; value: unknown }>;
    beforeAll(async () => {
      const effective = (await admin.get("/api/v1/settings/effective")).json();
      built = {
        default_country: { category: "store", value: effective.store.default_country },
        default_timezone: { category: "store", value: effective.store.default_timezone },
        default_locale: { category: "store", value: effective.store.default_locale },
        default_currency: { category: "product", value: effective.product.default_currency },
        default_vat_rate: { category: "product", value: effective.product.default_vat_rate },
        currencies_by_country: { category: "product", value: effective.product.currencies_by_country },
        vat_rates_by_country: { category: "product", value: effective.product.vat_rates_by_country },
      };
      const { UK: _c, ...currencies } = effective.product.currencies_by_country;
      const { UK: _v, ...vatRates } = effective.product.vat_rates_by_country;
      await setting("store", "default_country", "DK");
      await setting("store", "default_timezone", "Asia/Tokyo");
      await setting("store", "default_locale", "en-GB");
      await setting("product", "default_currency", "EUR");
      await setting("product", "default_vat_rate", 0.12);
      await setting("product", "currencies_by_country", currencies);
      await setting("product", "vat_rates_by_country", vatRates);
    });
    afterAll(async () => {
      for (const [key, { category, value }] of Object.entries(built)) await setting(category, key, value);
    });

    it("puts a store without a country in the default country, with the default_* values", async () => {
      expect(defaultsOf(await create({ name: "Hemma" }))).toEqual({
        country: "DK",
        timezone: "Asia/Tokyo",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.12,
      });
      expect(defaultsOf(await create({ name: "Hemma uttryckligen", country: "DK" }))).toEqual({
        country: "DK",
        timezone: "Asia/Tokyo",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.12,
      });
    });

    it("gives a store in another country that country's values, now Sweden too", async () => {
      expect(defaultsOf(await create({ name: "Borta", country: "SE" }))).toEqual({
        country: "SE",
        timezone: "Europe/Stockholm",
        language: "en-GB",
        currency: "SEK",
        vat_rate: 0.25,
      });
    });

    it("falls back to the default currency and VAT rate for a country missing from their maps", async () => {
      expect(defaultsOf(await create({ name: "London", country: "UK" }))).toEqual({
        country: "UK",
        timezone: "Europe/London",
        language: "en-GB",
        currency: "EUR",
        vat_rate: 0.12,
      });
    });
  });
});
