import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../test/harness.ts";
import { STORE_LINK_INVALID } from "./public.service.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const get = (storeId: string) => ctx.app.inject({ method: "GET", url: `/api/v1/public/stores/${storeId}` });

describe("a store link that names no store", () => {
  it.each([["nope"], ["demo2"], ["00000000-0000-4000-8000-00000000000"], ["x".repeat(150)]])(
    "answers %s with a Swedish sentence, not a field name",
    async (storeId) => {
      const res = await get(storeId);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: STORE_LINK_INVALID,
        code: "invalid_store_id",
        errors: [{ path: "store_id", message: STORE_LINK_INVALID }],
      });
    },
  );

  it("a well-formed id of no store is a 404 in Swedish, and demo is not refused as malformed", async () => {
    const missing = await get("00000000-0000-4000-8000-000000000000");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe("Butiken finns inte.");
    expect((await get("demo")).statusCode).not.toBe(400);
  });
});

describe("the shopper app's config", () => {
  it("names BankID's own app link by default, whatever host name the page used", async () => {
    const res = await ctx.app.inject({
      method: "GET",
      url: "/api/v1/public/config",
      headers: { host: "10.0.0.5:3000" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ dev_tools: false, bankid_app_url: "https://app.bankid.com/", card_page_url: null });
    expect(res.headers.vary).toMatch(/host/i);
  });
});
