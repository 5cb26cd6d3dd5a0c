import {
  errorSchema,
  STORE_LIMITS,
  type Store,
  type StoreModule,
  storeModuleSchema,
  storeSchema,
} from "@glide/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { as, createTestContext, signIn, type TestContext } from "../../test/harness.ts";

let ctx: TestContext;
let admin: ReturnType<typeof as>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = as(ctx.app, (await signIn(ctx.app)).cookie);
});
afterAll(() => ctx.close());

async function create(body: Record<string, unknown>): Promise<Store> {
  const res = await admin.post("/api/v1/stores/", body);
  expect(res.statusCode, res.body).toBe(201);
  return storeSchema.parse(res.json());
}

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
