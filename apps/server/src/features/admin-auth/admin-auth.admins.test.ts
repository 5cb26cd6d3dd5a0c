import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, signIn, TEST_PASSWORD } from "../../test/harness.ts";
import { ctx, login, openAdminAuthTests } from "./admin-auth.fixtures.ts";
import { ADMIN_COOKIE } from "./admin-auth.hooks.ts";
import { countAdmins, createAdmin, deleteAdmin, listAdmins, setAdminPassword } from "./admin-auth.service.ts";

beforeAll(openAdminAuthTests);
afterAll(() => ctx.close());

describe("creating admins", () => {
  const create = (fields: Partial<Parameters<typeof createAdmin>[0]>) =>
    createAdmin({
      db: ctx.app.db,
      email: "new@example.se",
      password: TEST_PASSWORD,
      role: "platform_admin",
      ...fields,
    });

  it("refuses a bad e-mail, a password under 12 characters, a taken e-mail and an unknown store", async () => {
    await expect(create({ email: "not-an-address" })).rejects.toMatchObject({ status: 422 });
    await expect(create({ email: "short@example.se", password: "x".repeat(11) })).rejects.toMatchObject({
      status: 422,
      message: "password: must be at least 12 characters",
    });
    await expect(create({ email: "twelve@example.se", password: "x".repeat(12) })).resolves.toMatchObject({
      email: "twelve@example.se",
    });
    await expect(create({ email: "TWELVE@example.se" })).rejects.toMatchObject({ status: 409 });
    await expect(
      create({ email: "lost@example.se", role: "store_admin", storeIds: ["00000000-0000-4000-8000-000000000000"] }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("gives a store admin their stores, and tells them at sign-in", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Min" })).json()
      .id as string;
    await create({ email: "mine@example.se", role: "store_admin", storeIds: [store, store] });
    const res = await login("mine@example.se", TEST_PASSWORD, "10.9.9.2");
    expect(res.json()).toMatchObject({ role: "store_admin", store_ids: [store] });
  });
});

describe("creating admins: what is stored", () => {
  it("refuses addresses that only contain a valid one, and says why", async () => {
    for (const email of ["a b@example.se", "a@b.se c", "a@@example.se", "@example.se", "a@example", "a@example."]) {
      await expect(
        createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" }),
      ).rejects.toMatchObject({ status: 422, message: "email: not a valid e-mail address" });
    }
  });

  it("stores the address trimmed, names a taken one, and gives a platform admin no stores", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Ej min" })).json()
      .id as string;
    const made = await createAdmin({
      db: ctx.app.db,
      email: "  Spaced@Example.se ",
      password: TEST_PASSWORD,
      role: "platform_admin",
      storeIds: [store],
    });
    expect(made).toMatchObject({ email: "Spaced@Example.se", role: "platform_admin", storeIds: [] });
    expect((await listAdmins(ctx.app.db)).find((a) => a.id === made.id)?.storeIds).toEqual([]);
    await expect(
      createAdmin({ db: ctx.app.db, email: "spaced@example.se", password: TEST_PASSWORD, role: "platform_admin" }),
    ).rejects.toMatchObject({ status: 409, message: "An admin with e-mail spaced@example.se already exists" });
  });

  it("names every unknown store id, and creates nothing then", async () => {
    const store = (await as(ctx.app, (await signIn(ctx.app)).cookie).post("/api/v1/stores/", { name: "Finns" })).json()
      .id as string;
    const lost = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
    await expect(
      createAdmin({
        db: ctx.app.db,
        email: "half@example.se",
        password: TEST_PASSWORD,
        role: "store_admin",
        storeIds: [lost[0]!, store, lost[1]!],
      }),
    ).rejects.toMatchObject({ status: 404, message: `Unknown store id: ${lost[0]}, ${lost[1]}` });
    expect((await listAdmins(ctx.app.db)).some((a) => a.email === "half@example.se")).toBe(false);
  });

  it("creates a store admin without stores when none are given", async () => {
    const made = await createAdmin({
      db: ctx.app.db,
      email: "nostores@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
    });
    expect(made.storeIds).toEqual([]);
    expect((await login("nostores@example.se", TEST_PASSWORD, "10.9.9.3")).json()).toMatchObject({
      role: "store_admin",
      store_ids: [],
    });
  });
});

describe("the admin command's use cases", () => {
  it("sets a new password: the old one stops working and the admin is signed out everywhere", async () => {
    const email = "reset@example.se";
    await createAdmin({ db: ctx.app.db, email, password: TEST_PASSWORD, role: "platform_admin" });
    const other = await signIn(ctx.app);
    const cookie = (await login(email, TEST_PASSWORD, "10.11.0.1")).cookies.find((c) => c.name === ADMIN_COOKIE)!;
    await setAdminPassword({ db: ctx.app.db, email: " RESET@example.se ", password: "a new password!" });
    expect((await as(ctx.app, cookie.value).get("/api/v1/admin/me")).statusCode).toBe(204);
    expect((await as(ctx.app, other.cookie).get("/api/v1/admin/me")).statusCode).toBe(200);
    expect((await login(email, TEST_PASSWORD, "10.11.0.2")).statusCode).toBe(401);
    expect((await login(email, "a new password!", "10.11.0.3")).statusCode).toBe(200);
  });

  it("refuses a new password under 12 characters, and an unknown admin", async () => {
    await createAdmin({ db: ctx.app.db, email: "keep@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    await expect(
      setAdminPassword({ db: ctx.app.db, email: "keep@example.se", password: "x".repeat(11) }),
    ).rejects.toMatchObject({ status: 422, message: "password: must be at least 12 characters" });
    expect((await login("keep@example.se", TEST_PASSWORD, "10.11.1.1")).statusCode).toBe(200);
    await setAdminPassword({ db: ctx.app.db, email: "keep@example.se", password: "y".repeat(12) });
    expect((await login("keep@example.se", "y".repeat(12), "10.11.1.2")).statusCode).toBe(200);
    await expect(
      setAdminPassword({ db: ctx.app.db, email: "ghost@example.se", password: TEST_PASSWORD }),
    ).rejects.toMatchObject({ status: 404, message: "No admin with e-mail ghost@example.se" });
  });

  it("lists admins by e-mail with their own stores, and counts them", async () => {
    const cookie = (await signIn(ctx.app)).cookie;
    const a = (await as(ctx.app, cookie).post("/api/v1/stores/", { name: "A" })).json().id as string;
    const b = (await as(ctx.app, cookie).post("/api/v1/stores/", { name: "B" })).json().id as string;
    const before = await countAdmins(ctx.app.db);
    const zed = await createAdmin({
      db: ctx.app.db,
      email: "zz-list@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
      storeIds: [a, b],
    });
    const ann = await createAdmin({
      db: ctx.app.db,
      email: "aa-list@example.se",
      password: TEST_PASSWORD,
      role: "store_admin",
      storeIds: [b],
    });
    expect(await countAdmins(ctx.app.db)).toBe(before + 2);

    const listed = await listAdmins(ctx.app.db);
    expect(listed).toHaveLength(before + 2);
    // By e-mail, not by creation: "zz" was created first. (Only these two: the collation orders the rest.)
    const emails = listed.map((x) => x.email);
    expect(emails.indexOf("aa-list@example.se")).toBeLessThan(emails.indexOf("zz-list@example.se"));
    expect(listed.find((x) => x.id === zed.id)).toEqual({
      id: zed.id,
      email: "zz-list@example.se",
      role: "store_admin",
      storeIds: expect.arrayContaining([a, b]),
    });
    expect(listed.find((x) => x.id === zed.id)?.storeIds).toHaveLength(2);
    expect(listed.find((x) => x.id === ann.id)?.storeIds).toEqual([b]);
  });

  it("deletes one admin, whatever the case of the e-mail, and refuses an unknown one", async () => {
    await createAdmin({ db: ctx.app.db, email: "gone@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    await createAdmin({ db: ctx.app.db, email: "stays@example.se", password: TEST_PASSWORD, role: "platform_admin" });
    const before = await countAdmins(ctx.app.db);
    await deleteAdmin(ctx.app.db, " GONE@example.se ");
    expect(await countAdmins(ctx.app.db)).toBe(before - 1);
    const emails = (await listAdmins(ctx.app.db)).map((x) => x.email);
    expect(emails).not.toContain("gone@example.se");
    expect(emails).toContain("stays@example.se");
    await expect(deleteAdmin(ctx.app.db, "gone@example.se")).rejects.toMatchObject({
      status: 404,
      message: "No admin with e-mail gone@example.se",
    });
  });
});
