import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBankIdSimulator } from "../../test/bankid-harness.ts";
import { createTestContext, type TestContext } from "../../test/harness.ts";
import { bankIdAppUrlFor, pageOrigin } from "./addresses.ts";

const PUBLIC_URL = "http://localhost:3000";
const request = (host: string, origin?: string, protocol = "http") => ({ headers: { origin }, protocol, host });

describe("the page a sign-in returns to", () => {
  it.each([
    ["the public address itself", request("localhost:3000", "http://localhost:3000"), "http://localhost:3000"],
    ["another name of this server", request("127.0.0.1:3000", "http://127.0.0.1:3000"), "http://127.0.0.1:3000"],
    ["a phone on the network", request("192.168.1.20:3000", "http://192.168.1.20:3000"), "http://192.168.1.20:3000"],
    [
      "a host name, any case",
      request("Shop.Example.SE", "https://shop.example.se", "https"),
      "https://shop.example.se",
    ],
    [
      "a default port written out",
      request("shop.example.se:443", "https://shop.example.se", "https"),
      "https://shop.example.se",
    ],
  ])("same origin: %s", (_name, req, expected) => {
    expect(pageOrigin(req, PUBLIC_URL)).toBe(expected);
  });

  it.each([
    ["no Origin header (not a browser)", request("127.0.0.1:3000")],
    ["a page of another site", request("127.0.0.1:3000", "https://evil.example")],
    ["another port", request("127.0.0.1:3000", "http://127.0.0.1:3001")],
    ["another scheme", request("127.0.0.1:3000", "https://127.0.0.1:3000")],
    ["an opaque origin", request("127.0.0.1:3000", "null")],
    ["an IPv6 literal, which BankID takes as no domain", request("[::1]:3000", "http://[::1]:3000")],
    ["a Host header that is no host", request("a b", "http://a b")],
  ])("otherwise the public address: %s", (_name, req) => {
    expect(pageOrigin(req, `${PUBLIC_URL}/`)).toBe(PUBLIC_URL);
  });
});

describe("where the BankID app is for a page", () => {
  const simulator = "http://127.0.0.1:8444/app";
  it("BankID's own link is the same for everyone", () => {
    expect(bankIdAppUrlFor("https://app.bankid.com/", "192.168.1.20")).toBe("https://app.bankid.com/");
    expect(bankIdAppUrlFor("https://bankid.example:8444/app", "192.168.1.20")).toBe("https://bankid.example:8444/app");
  });
  it.each([
    ["192.168.1.20", "http://192.168.1.20:8444/app"],
    ["localhost", "http://localhost:8444/app"],
    ["shop.example.se", "http://shop.example.se:8444/app"],
    ["[::1]", "http://[::1]:8444/app"],
  ])("a loopback address means this machine, as the page named it: %s", (hostname, expected) => {
    expect(bankIdAppUrlFor(simulator, hostname)).toBe(expected);
    expect(bankIdAppUrlFor("http://localhost:8444/app", hostname)).toBe(expected);
  });
  it.each([[""], ["evil.example/x"], ["[fe80::1]"], ["a b"]])("an odd host name %j keeps the configured one", (h) => {
    expect(bankIdAppUrlFor(simulator, h)).toBe(simulator);
  });
});

describe("over HTTP", () => {
  let sim: Awaited<ReturnType<typeof startBankIdSimulator>>;
  let ctx: TestContext;
  beforeAll(async () => {
    sim = await startBankIdSimulator();
    ctx = await createTestContext({
      ...sim.env,
      PUBLIC_URL,
      BANKID_APP_URL: "http://127.0.0.1:8444/app",
      CARD_PAGE_URL: "http://127.0.0.1:8445/card",
    });
  });
  afterAll(async () => {
    await ctx.close();
    await sim.close();
  });

  const init = (headers: Record<string, string>) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/init",
      headers,
      payload: { autostart: true, return_path: "/customer/login?store_id=demo" },
    });

  it("BankID sends the shopper back to the host name the page was opened under", async () => {
    const res = await init({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" });
    expect(res.statusCode, res.body).toBe(200);
    const order = (await sim.order(res.json().order_ref)) as { returnUrl?: string } | undefined;
    expect(order?.returnUrl).toBe("http://127.0.0.1:3000/customer/login?store_id=demo");
  });

  it("and to PUBLIC_URL when the request names no page of this server (another site's is refused anyway)", async () => {
    const res = await init({ host: "127.0.0.1:3000" });
    expect(res.statusCode, res.body).toBe(200);
    const order = (await sim.order(res.json().order_ref)) as { returnUrl?: string } | undefined;
    expect(order?.returnUrl).toBe("http://localhost:3000/customer/login?store_id=demo");
  });

  it("the public config names the BankID app and the card page under the host name asked for", async () => {
    const config = (host: string) =>
      ctx.app.inject({ method: "GET", url: "/api/v1/public/config", headers: { host } }).then((r) => r.json());
    expect(await config("192.168.1.20:3000")).toEqual({
      dev_tools: false,
      bankid_app_url: "http://192.168.1.20:8444/app",
      card_page_url: "http://192.168.1.20:8445/card",
    });
    expect((await config("localhost:3000")).bankid_app_url).toBe("http://localhost:8444/app");
    expect((await config("localhost:3000")).card_page_url).toBe("http://localhost:8445/card");
  });
});
