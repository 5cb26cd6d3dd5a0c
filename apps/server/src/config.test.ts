import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "glide-config-"));

describe("configuration", () => {
  it("works with nothing set", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, devTools: false, secureCookies: false });
    // The generated key is kept, so the next start reads the same one.
    expect(readFileSync(path.join(dir, "secret.key"), "utf8").trim()).toBe(config.secretKey);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(config.secretKey);
  });

  it("fails fast naming every bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", DATA_DIR: dataDir() })).toThrowError(
      ConfigError,
    );
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", DATA_DIR: dataDir() });
    } catch (err) {
      expect((err as Error).message).toContain("PORT");
      expect((err as Error).message).toContain("DATABASE_URL: must start with postgres://");
    }
  });

  it("requires SECRET_KEY in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir() })).toThrowError(
      /SECRET_KEY: required in production/,
    );
  });

  it("serves the API docs outside production, and in production only when asked", () => {
    const key = "k".repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir() }).apiDocs).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), API_DOCS: "false" }).apiDocs).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: "production", SECRET_KEY: key }).apiDocs).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: "production", SECRET_KEY: key, API_DOCS: "true" }).apiDocs).toBe(
      true,
    );
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: "production", SECRET_KEY: key, API_DOCS: "1" }).apiDocs).toBe(
      true,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), API_DOCS: "yes" })).toThrowError(/API_DOCS/);
  });

  it("turns DEV_TOOLS on only when asked", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEV_TOOLS: "true" }).devTools).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DEV_TOOLS: "yes please" })).toThrowError(/DEV_TOOLS/);
  });
});
