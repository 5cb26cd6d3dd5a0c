import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../app.ts";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import { as, createTestContext, signIn, type TestContext } from "../test/harness.ts";
import { errorBodyForEmptyReplies } from "./http-errors.ts";
import { securityHeaders } from "./security-headers.ts";

let ctx: TestContext;
let cookie: string;
beforeAll(async () => {
  ctx = await createTestContext();
  cookie = (await signIn(ctx.app)).cookie;
});
afterAll(() => ctx.close());

const raw = (payload: string, contentType = "application/json") =>
  ctx.app.inject({
    method: "POST",
    url: "/api/v1/stores/",
    payload,
    headers: { "content-type": contentType },
    cookies: { [ADMIN_COOKIE]: cookie },
  });

describe("health", () => {
  it("reports the database as up", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok", database: { status: "up" } });
  });
});

describe("errors", () => {
  it("answers unknown API paths with 404 JSON", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/v1/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "No route GET /api/v1/nothing-here", code: "not_found" });
  });

  it("serves the web app for other page paths", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/stores?search=x" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("Glide test page");
    expect((await ctx.app.inject({ method: "GET", url: "/missing.js" })).statusCode).toBe(404);
  });

  it("serves the shopper app's own page under /customer", async () => {
    const { writeFileSync } = await import("node:fs");
    const path = await import("node:path");
    writeFileSync(path.join(ctx.dataDir, "customer.html"), "<!doctype html><title>Glide shopper page</title>");
    const shopper = await createTestContext({ WEB_DIST: ctx.dataDir });
    try {
      for (const url of ["/customer", "/customer/login?store_id=demo", "/customer/qr-entry"]) {
        expect((await shopper.app.inject({ method: "GET", url })).body).toContain("Glide shopper page");
      }
      expect((await shopper.app.inject({ method: "GET", url: "/customers" })).body).toContain("Glide test page");
      expect((await shopper.app.inject({ method: "GET", url: "/stores" })).body).toContain("Glide test page");
    } finally {
      await shopper.close();
    }
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it, and the plain file otherwise", async () => {
    const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } = await import("node:zlib");
    const dist = mkdtempSync(path.join(tmpdir(), "glide-web-"));
    const script = `console.log(${JSON.stringify("Välkommen ".repeat(200))});`;
    const page = `<!doctype html><title>Glide compressed page</title>${"<p>Hej</p>".repeat(100)}`;
    mkdirSync(path.join(dist, "assets"));
    for (const [file, text] of [
      ["assets/app-abc123.js", script],
      ["index.html", page],
      ["customer.html", page],
    ] as const) {
      writeFileSync(path.join(dist, file), text);
      writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(text));
      writeFileSync(path.join(dist, `${file}.gz`), gzipSync(text));
    }
    const web = await createTestContext({ WEB_DIST: dist });
    try {
      const get = (url: string, encoding?: string) =>
        web.app.inject({ method: "GET", url, headers: encoding ? { "accept-encoding": encoding } : {} });

      const br = await get("/assets/app-abc123.js", "gzip, deflate, br");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(String(br.headers.vary).toLowerCase()).toContain("accept-encoding");
      expect(br.headers["content-type"]).toContain("javascript");
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 4);

      const gz = await get("/assets/app-abc123.js", "gzip");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

      const plain = await get("/assets/app-abc123.js");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(script);

      for (const url of ["/stores", "/customer/login"]) {
        const html = await get(url, "br");
        expect(html.headers["content-encoding"]).toBe("br");
        expect(html.headers["cache-control"]).toBe("no-cache");
        expect(html.headers["content-type"]).toContain("text/html");
        expect(brotliDecompressSync(html.rawPayload).toString()).toBe(page);
      }
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("rejects malformed JSON with 400", async () => {
    const res = await raw('{"name": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: "Request body is not valid JSON", code: "malformed_json" });
  });

  it("rejects wrong types with 422 naming the field", async () => {
    const res = await raw(JSON.stringify({ name: 42 }));
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/^name: /);
  });

  it("rejects an oversize body with 413", async () => {
    const res = await raw(JSON.stringify({ name: "x".repeat(BODY_LIMIT_BYTES) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("payload_too_large");
  });

  it("rejects other content types with 415", async () => {
    const res = await raw("name=x", "application/x-www-form-urlencoded");
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toContain("application/json");
  });

  it("answers 415 to a text body on any route but the product import, which takes text", async () => {
    const store = (await raw(JSON.stringify({ name: "Textbutiken" }))).json().id as string;
    const sent = (method: "POST" | "PUT", url: string, payload: string, contentType: string) =>
      ctx.app.inject({
        method,
        url,
        payload,
        headers: { "content-type": contentType },
        cookies: { [ADMIN_COOKIE]: cookie },
      });
    for (const contentType of ["text/plain", "text/plain; charset=utf-8", "text/csv"]) {
      const put = await sent("PUT", `/api/v1/stores/${store}`, '{"name":"Nytt namn"}', contentType);
      expect([put.statusCode, put.json().code], contentType).toEqual([415, "unsupported_media_type"]);
      expect((await raw("{}", contentType)).statusCode).toBe(415);
    }
    const imported = await sent(
      "POST",
      "/api/v1/products/import?dry_run=true",
      "sku,name,price\nT-1,Te,10\n",
      "text/plain",
    );
    expect(imported.statusCode, imported.body).toBe(200);
  });

  it("never leaks a stack trace", async () => {
    const res = await raw("[[[[");
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe("headers", () => {
  it("sends security headers, a same-origin CSP and a request id", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "trace-123" } });
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    // Scripts from our origin only; WebAssembly may compile (the barcode decoder), eval may not.
    expect(res.headers["content-security-policy"]).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(res.headers["content-security-policy"]).not.toContain("'unsafe-eval'");
    expect(res.headers["content-security-policy"]).not.toMatch(/https?:/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-request-id"]).toBe("trace-123");
    const other = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(other.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends helmet's headers, each once and nothing else, on every answer (an error's too)", async () => {
    const security = [
      "content-security-policy",
      "cross-origin-opener-policy",
      "cross-origin-resource-policy",
      "origin-agent-cluster",
      "referrer-policy",
      "x-content-type-options",
      "x-dns-prefetch-control",
      "x-download-options",
      "x-frame-options",
      "x-permitted-cross-domain-policies",
      "x-xss-protection",
    ];
    for (const url of ["/api/health", "/api/v1/no-such-route", "/api/v1/stores/"]) {
      const res = await ctx.app.inject({ method: "GET", url });
      const sent = Object.keys(res.headers).filter(
        (name) => !["content-type", "content-length", "date", "connection", "x-request-id"].includes(name),
      );
      expect(sent.sort(), url).toEqual(security);
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
    }
  });

  it("refuses to start with no security header at all (helmet's middleware changed under it)", () => {
    const off = Object.fromEntries(
      [
        "contentSecurityPolicy",
        "crossOriginEmbedderPolicy",
        "crossOriginOpenerPolicy",
        "crossOriginResourcePolicy",
        "originAgentCluster",
        "referrerPolicy",
        "strictTransportSecurity",
        "xContentTypeOptions",
        "xDnsPrefetchControl",
        "xDownloadOptions",
        "xFrameOptions",
        "xPermittedCrossDomainPolicies",
        "xPoweredBy",
        "xXssProtection",
      ].map((name) => [name, false]),
    );
    expect(() => securityHeaders(Fastify(), off)).toThrow("helmet set no header");
  });
});

describe("API documentation", () => {
  it("publishes OpenAPI generated from the route schemas", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/stores/",
        "/api/v1/stores/{id}",
        "/api/v1/stores/{id}/modules/{moduleId}",
        "/api/v1/admin/dashboard",
        "/api/v1/admin/login",
      ]),
    );
    expect(doc.paths["/api/v1/stores/"].post.requestBody.content["application/json"].schema.properties).toHaveProperty(
      "organization_number",
    );
  });

  it("serves the docs UI", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("swagger");
    expect(res.headers["content-security-policy"]).not.toContain("https:");
  });
});

describe("settings used by the store form", () => {
  const admin = () => as(ctx.app, cookie);
  it.each([
    ["store/types", (v: { types: { value: string }[] }) => expect(v.types.map((t) => t.value)).toContain("grocery")],
    [
      "store/countries",
      (v: Record<string, string>) =>
        expect(Object.keys(v).sort()).toEqual(["DE", "DK", "FI", "FR", "NO", "SE", "UK", "US"]),
    ],
    ["store/timezones", (v: Record<string, string>) => expect(Object.keys(v)).toHaveLength(10)],
    ["store/languages", (v: Record<string, string>) => expect(Object.keys(v)).toContain("sv-SE")],
    [
      "product/currencies_by_country",
      (v: Record<string, { code: string }>) => expect(v.SE).toMatchObject({ code: "SEK", symbol: "kr" }),
    ],
    // biome-ignore lint/suspicious/noExplicitAny: each row checks its own value shape
  ] as [string, (v: any) => void][])("GET /api/v1/settings/%s", async (path, check) => {
    const res = await admin().get(`/api/v1/settings/${path}`);
    expect(res.statusCode).toBe(200);
    check(res.json().value);
  });

  it("lists every setting, or one category's, with the editable flag", async () => {
    const all = await admin().get("/api/v1/settings/");
    expect(all.statusCode).toBe(200);
    const keys = all.json().map((s: { category: string; key: string }) => `${s.category}/${s.key}`);
    expect(keys).toEqual(expect.arrayContaining(["store/types", "product/default_vat_category", "ui/defaults"]));
    const store = await admin().get("/api/v1/settings/?category=store");
    expect(new Set(store.json().map((s: { category: string }) => s.category))).toEqual(new Set(["store"]));
    expect(store.json().find((s: { key: string }) => s.key === "types").is_editable).toBe(false);
    expect((await admin().get("/api/v1/settings/?category=weather")).statusCode).toBe(400);
    expect((await as(ctx.app, null).get("/api/v1/settings/")).statusCode).toBe(401);
  });

  it("answers 404 for an unknown key or category, 401 when signed out", async () => {
    expect((await admin().get("/api/v1/settings/store/nothing")).statusCode).toBe(404);
    const bad = await admin().get("/api/v1/settings/weather/types");
    expect(bad.statusCode).toBe(404);
    expect(bad.json().detail).toBe("Setting weather/types not found");
    expect((await as(ctx.app, null).get("/api/v1/settings/store/types")).statusCode).toBe(401);
  });
});

describe("errors sent without a body", () => {
  const call = (status: number, payload: unknown, method = "GET") => {
    const headers: Record<string, string> = {};
    const reply = { statusCode: status, header: (k: string, v: string) => (headers[k] = v) };
    const request = { method, url: "/ws/cart?session_id=x" };
    return errorBodyForEmptyReplies(request as never, reply as never, payload).then((body) => ({ body, headers }));
  };

  it("get our shape when a plugin answers an error with no body", async () => {
    const notFound = await call(404, undefined);
    expect(JSON.parse(String(notFound.body))).toEqual({ detail: "No route GET /ws/cart", code: "not_found" });
    expect(notFound.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(String((await call(426, "")).body))).toEqual({
      detail: "Upgrade Required",
      code: "upgrade_required",
    });
  });

  it("leave bodies, successes and HEAD answers as they are", async () => {
    expect((await call(404, '{"detail":"x","code":"y"}')).body).toBe('{"detail":"x","code":"y"}');
    expect((await call(204, undefined)).body).toBeUndefined();
    expect((await call(404, undefined, "HEAD")).body).toBeUndefined();
  });
});
