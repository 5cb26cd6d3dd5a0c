import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { freshDatabase, TEST_DATABASE_URL } from "../test/harness.ts";
import { DataFolderLockedError, openDatabase, sql } from "./client.ts";
import { stores } from "./schema/index.ts";

const logger = pino({ level: "silent" });

describe("embedded database folder", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "glide-lock-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second opener with a clear message, and keeps the data across reopenings", async () => {
    const first = await openDatabase({ dataDir: dir, logger });
    await first.db.insert(stores).values({ name: "Kept" });
    await expect(openDatabase({ dataDir: dir, logger })).rejects.toThrowError(DataFolderLockedError);
    await expect(openDatabase({ dataDir: dir, logger })).rejects.toThrowError(/is in use by another process/);
    await first.close();

    const second = await openDatabase({ dataDir: dir, logger });
    const rows = await second.db.select().from(stores);
    expect(rows.map((r) => r.name)).toEqual(["Kept"]);
    await second.close();
  });
});

/**
 * A TCP relay in front of PostgreSQL that the test can cut and restore:
 * from the service's side that is PostgreSQL going away and coming back.
 */
class Relay {
  server: net.Server | undefined;
  sockets = new Set<net.Socket>();
  port = 0;
  readonly target: URL;
  constructor(target: URL) {
    this.target = target;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL going away", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let relay: Relay;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    fresh = await freshDatabase();
    relay = new Relay(new URL(fresh.url!));
    await relay.start();
    const viaRelay = new URL(fresh.url!);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(relay.port);
    const dataDir = mkdtempSync(path.join(tmpdir(), "glide-pg-"));
    app = await buildApp(
      loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, DATABASE_URL: viaRelay.toString() }),
    );
  });
  afterAll(async () => {
    await app.close();
    await relay.stop();
    await fresh.database.close();
    await fresh.drop();
  });

  it("reports 503 while it is down and serves the first request after it is back", async () => {
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    // Warm the pool so it holds connections that are about to die.
    await Promise.all([1, 2, 3].map(() => app.db.execute(sql`select pg_sleep(0.01)`)));

    await relay.stop();
    const down = await app.inject({ method: "GET", url: "/api/health" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: "unavailable", database: { kind: "postgres", status: "down" } });

    await relay.start();
    const [row] = await app.db.select().from(stores).limit(1);
    expect(row).toBeUndefined();
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });
});
