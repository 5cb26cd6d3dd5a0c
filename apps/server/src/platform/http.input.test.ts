import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_COOKIE } from "../features/admin-auth/admin-auth.hooks.ts";
import { as, createTestContext, signIn, type TestContext } from "../test/harness.ts";

let ctx: TestContext;
let cookie: string;
beforeAll(async () => {
  ctx = await createTestContext();
  cookie = (await signIn(ctx.app)).cookie;
});
afterAll(() => ctx.close());

describe("control characters and router errors", () => {
  const admin = () => as(ctx.app, cookie);
  const refusal = (res: { statusCode: number; json(): unknown }, field: string) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "control_character", errors: [{ path: field }] });
  };

  it("keeps tabs and line breaks in a body, and refuses NUL and other control characters naming the field", async () => {
    const description = "Rad ett\r\n\tRad två\nRad tre";
    const ok = await admin().post("/api/v1/products/", { sku: "CTRL-1", name: "Vara", price: 5, description });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().description).toBe(description);
    refusal(await admin().post("/api/v1/products/", { sku: "CTRL-2", name: "a\u0000b", price: 5 }), "name");
    refusal(await admin().post("/api/v1/products/", { sku: "CTRL-3", name: "bell\u0007", price: 5 }), "name");
    refusal(
      await admin().post("/api/v1/products/", { sku: "CTRL-4", name: "x", price: 5, barcodes: ["1", "\u007f"] }),
      "barcodes.1",
    );
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/admin/login",
      payload: { email: "a\u0000@x.se", password: "whatever it is" },
    });
    refusal(login, "email");
    expect(login.json().detail).toBe("email: Contains a control character (U+0000); remove it and try again");
  });

  it("does not echo a field name that holds the control character", async () => {
    const res = await admin().post("/api/v1/stores/", { name: "Butik", "na\u0000me": "x" });
    refusal(res, "body");
    expect(res.body).not.toContain("\\u0000");
  });

  it("refuses control characters in queries and paths, tab included, and names the parameter", async () => {
    refusal(await admin().get("/api/v1/stores/?search=%00"), "search");
    refusal(await admin().get("/api/v1/products/?search=a%09b"), "search");
    refusal(await admin().get("/api/v1/products/?category=%00"), "category");
    refusal(await admin().get("/api/v1/settings/store/%00"), "key");
    refusal(await ctx.app.inject({ method: "GET", url: "/api/v1/nothing/%00" }), "path");
    expect((await admin().get("/api/v1/stores/?search=%C3%A5%20b")).statusCode).toBe(200);
  });

  it("answers a CSV export with a control character in its search with a 400, not a cut file", async () => {
    const res = await admin().get("/api/v1/products/export?search=%00");
    refusal(res, "search");
    expect(res.headers["content-type"]).toContain("application/json");
  });

  it("checks a CSV import, dry run too, and says on which line the character is", async () => {
    const csv = (text: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/products/import?dry_run=true",
        payload: text,
        headers: { "content-type": "text/csv" },
        cookies: { [ADMIN_COOKIE]: cookie },
      });
    const bad = await csv("sku,name,price\nCSV-1,Vara,5\nCSV-2,Va\u0000ra,5\n");
    refusal(bad, "body");
    expect(bad.json().detail).toContain("on line 3");
    expect((await csv("sku,name,price\r\nCSV-1,Vara\tmed tabb,5\r\n")).statusCode).toBe(200);
  });

  it("answers a badly encoded address with 400 in our shape, signed in or not", async () => {
    for (const res of [
      await admin().get("/api/v1/stores/%ff%fe"),
      await as(ctx.app, null).get("/api/v1/stores/%ff%fe"),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "The address is not validly encoded", code: "bad_url" });
    }
  });

  it("lets a path parameter of 200 characters through the router and answers 201 with 414", async () => {
    const at200 = await admin().get(`/api/v1/products/lookup/${"7".repeat(200)}`);
    expect(at200.statusCode).toBe(400);
    expect(at200.json().code).toBe("validation_error");
    const at201 = await admin().get(`/api/v1/products/lookup/${"7".repeat(201)}`);
    expect(at201.statusCode).toBe(414);
    expect(at201.json()).toEqual({ detail: "A part of the address is too long", code: "uri_too_long" });
  });
});

describe("requests the HTTP parser refuses", () => {
  /** Raw bytes over a real socket: these never reach Fastify's routing, so inject cannot send them. */
  async function send(request: string): Promise<{ status: number; body: string }> {
    const { connect } = await import("node:net");
    const address = ctx.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(request));
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = data.split("\r\n\r\n");
        resolve({ status: Number(head.split(" ")[1]), body });
      });
    });
  }
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("answers headers over the size limit with 431 in our shape", async () => {
    const res = await send(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String), code: "headers_too_large" });
  });

  it("answers a malformed request line or header with 400 in our shape", async () => {
    for (const request of [
      "GET /api/he\u0001alth HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n",
    ]) {
      const res = await send(request);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ detail: "The request is not valid HTTP", code: "bad_request" });
    }
  });

  it("still answers a well-formed request on the same server", async () => {
    const res = await send("GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(200);
  });
});
