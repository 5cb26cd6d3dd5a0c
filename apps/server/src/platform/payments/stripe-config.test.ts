import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.ts";

/** STRIPE_SECRET_KEY and STRIPE_API_BASE as config.ts reads them. */
const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "glide-stripe-config-")), ...env });

describe("payment configuration", () => {
  it("is off without a key", () => {
    expect(load({}).stripe).toBeNull();
  });

  it("takes a key alone as Stripe's own API, and a key with a base as the simulator", () => {
    expect(load({ STRIPE_SECRET_KEY: "sk_test_abc123" }).stripe).toEqual({
      secretKey: "sk_test_abc123",
      apiBase: null,
    });
    expect(load({ STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_API_BASE: "http://127.0.0.1:8445/" }).stripe).toEqual({
      secretKey: "sk_test_abc123",
      apiBase: "http://127.0.0.1:8445",
    });
  });

  it("refuses what is no secret key, naming the variable", () => {
    for (const key of ["pk_test_abc123", "sk_test_", "abc", "sk_prod_abc"]) {
      expect(() => load({ STRIPE_SECRET_KEY: key })).toThrowError(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    }
    expect(load({ STRIPE_SECRET_KEY: "rk_live_abc123" }).stripe?.secretKey).toBe("rk_live_abc123");
  });

  it("refuses a base without a key, a base with a path, and other schemes", () => {
    expect(() => load({ STRIPE_API_BASE: "http://127.0.0.1:8445" })).toThrowError(
      /STRIPE_SECRET_KEY: required with STRIPE_API_BASE/,
    );
    expect(() => load({ STRIPE_SECRET_KEY: "sk_test_a1", STRIPE_API_BASE: "http://127.0.0.1:8445/v1" })).toThrowError(
      /STRIPE_API_BASE: scheme, host and port only/,
    );
    expect(() => load({ STRIPE_SECRET_KEY: "sk_test_a1", STRIPE_API_BASE: "ftp://127.0.0.1" })).toThrowError(
      /STRIPE_API_BASE/,
    );
    expect(() => load({ STRIPE_SECRET_KEY: "sk_test_a1", STRIPE_API_BASE: "not a url" })).toThrowError(ConfigError);
  });

  it("sends a live key over https only", () => {
    expect(() => load({ STRIPE_SECRET_KEY: "sk_live_a1", STRIPE_API_BASE: "http://127.0.0.1:8445" })).toThrowError(
      /a live key is sent over https only/,
    );
    expect(load({ STRIPE_SECRET_KEY: "sk_live_a1", STRIPE_API_BASE: "https://pay.example.se" }).stripe).toEqual({
      secretKey: "sk_live_a1",
      apiBase: "https://pay.example.se",
    });
    expect(load({ STRIPE_SECRET_KEY: "sk_test_a1", STRIPE_API_BASE: "http://127.0.0.1:8445" }).stripe?.apiBase).toBe(
      "http://127.0.0.1:8445",
    );
  });
});
