import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, createTestContext, signIn, type TestContext } from "./test/harness.ts";

/** What buildApp serves besides the API, by configuration: metrics behind a token, docs when asked for. */
const TOKEN = "metrics-token-0123456789abcdef";
let plain: TestContext;
let guarded: TestContext;
beforeAll(async () => {
  [plain, guarded] = await Promise.all([
    createTestContext(),
    createTestContext({ METRICS_TOKEN: TOKEN, API_DOCS: "false" }),
  ]);
});
afterAll(() => Promise.all([plain.close(), guarded.close()]));

const get = (ctx: TestContext, url: string, authorization?: string) =>
  ctx.app.inject({ method: "GET", url, ...(authorization ? { headers: { authorization } } : {}) });

describe("metrics", () => {
  it("are not served at all without METRICS_TOKEN", async () => {
    const res = await get(plain, "/metrics", `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "No route GET /metrics", code: "not_found" });
  });

  it.each([
    ["no Authorization header", undefined],
    ["an empty bearer token", "Bearer "],
    ["another token", "Bearer metrics-token-0123456789abcdeX"],
    ["the token with one character more", `Bearer ${TOKEN}x`],
    ["the token without its last character", `Bearer ${TOKEN.slice(0, -1)}`],
    ["the token as Basic credentials", `Basic ${TOKEN}`],
  ])("refuse %s with 401 in our error shape", async (_case, authorization) => {
    const res = await get(guarded, "/metrics", authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: "A valid metrics token is required", code: "unauthorized" });
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    expect(res.body).not.toContain("glide_");
  });

  it("count requests by route pattern and status in Prometheus text, for the right token", async () => {
    const cookie = (await signIn(guarded.app)).cookie;
    await as(guarded.app, cookie).get("/api/v1/stores/00000000-0000-4000-8000-000000000000/modules");
    const res = await get(guarded, "/metrics", `bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    expect(res.body).toContain(
      'glide_http_requests_total{method="GET",route="/api/v1/stores/:id/modules",status="404"} 1',
    );
    expect(res.body).toContain("glide_http_request_duration_seconds_bucket");
    expect(res.body).not.toContain("00000000-0000-4000-8000-000000000000");
  });
});

describe("API documentation", () => {
  it("is served by default (outside production)", async () => {
    expect((await get(plain, "/api/openapi.json")).statusCode).toBe(200);
    expect((await get(plain, "/api/docs/")).statusCode).toBe(200);
  });

  it("is not served with API_DOCS=false, while the API answers as before", async () => {
    for (const url of ["/api/openapi.json", "/api/docs/", "/api/docs/json"]) {
      const res = await get(guarded, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe("not_found");
    }
    expect((await get(guarded, "/api/health")).statusCode).toBe(200);
  });
});
