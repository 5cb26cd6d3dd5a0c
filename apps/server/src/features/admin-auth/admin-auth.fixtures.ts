import { createTestContext, type TestContext } from "../../test/harness.ts";

/** The app the admin sign-in tests share: one per test file, opened by `openAdminAuthTests`. */
export let ctx: TestContext;

/** Opens this test file's app and database (its `beforeAll`). */
export async function openAdminAuthTests(): Promise<void> {
  ctx = await createTestContext();
}

/** A sign-in through the console's API, from the address `ip`. */
export const login = (email: string, password: string, ip = "10.1.1.1") =>
  ctx.app.inject({ method: "POST", url: "/api/v1/admin/login", payload: { email, password }, remoteAddress: ip });
