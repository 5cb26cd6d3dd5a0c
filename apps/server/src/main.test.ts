import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, type Running, spawnServer } from "./test/cluster.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "glide-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(port: number): Running {
  return spawnServer({ DATA_DIR: dataDir, PORT: String(port), DEMO_DATA: "true", LOG_LEVEL: "warn" });
}

async function waitForHealth(port: number, running: Running): Promise<void> {
  // A first start migrates an empty database and loads the demo: on a busy two-core machine (two test
  // passes beside it) that has taken over 30 s.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) throw new Error(`server exited: ${running.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy: ${running.output()}`);
}

async function storeCount(port: number, email: string, password: string): Promise<number> {
  const login = await fetch(`http://127.0.0.1:${port}/api/v1/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/stores/`, { headers: { cookie } });
  return ((await res.json()) as unknown[]).length;
}

describe("npm start's server process", () => {
  it("prints the first admin once, stops cleanly on SIGTERM and keeps the data for the next start", async () => {
    const port = await freePort();
    const first = start(port);
    await waitForHealth(port, first);
    const password = /password: (\S+)/.exec(first.output())?.[1];
    expect(first.output()).toContain("e-mail:   admin@example.com");
    expect(password).toBeTruthy();
    expect(await storeCount(port, "admin@example.com", password!)).toBe(5);

    // A second process on the same data folder is turned away.
    const intruder = start(await freePort());
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain("is in use by another process");

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, "db.lock"))).toBe(false);

    const second = start(port);
    await waitForHealth(port, second);
    expect(second.output()).not.toContain("password:");
    expect(await storeCount(port, "admin@example.com", password!)).toBe(5);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 240_000);
});
