import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { openDatabase, queryRows } from "../../db/client.ts";
import type { EventBus } from "../../platform/event-bus.ts";
import { deafBus, waitFor } from "../../test/buses.ts";
import { as, createTestContext, signIn, TEST_DATABASE_URL, type TestContext } from "../../test/harness.ts";
import { createSettingsReader, SETTINGS_CACHE_MS, SETTINGS_TOPIC } from "./effective-settings.ts";

let ctx: TestContext;
const secret = randomBytes(32).toString("hex");

beforeAll(async () => {
  ctx = await createTestContext({ SECRET_KEY: secret });
});
afterAll(() => ctx.close());

const setRaw = (key: string, value: unknown) =>
  ctx.app.db.execute(
    sql`update settings set value = ${JSON.stringify(value)}::jsonb where category = 'ai' and key = ${key}`,
  );

describe("the per-instance copy", () => {
  it("is used until a change is announced; a missed announcement heals after SETTINGS_CACHE_MS", async () => {
    let clock = 1_000_000;
    const reader = createSettingsReader({
      db: ctx.app.db,
      bus: deafBus,
      logger: pino({ level: "silent" }),
      now: () => clock,
    });
    await setRaw("model_name", "yolov8n");
    expect((await reader.effective()).ai.model_name).toBe("yolov8n");

    await setRaw("model_name", "yolov8s");
    clock += SETTINGS_CACHE_MS - 1;
    expect((await reader.effective()).ai.model_name).toBe("yolov8n");
    // Come due, the copy still answers while it is read again in the background; then the new value.
    clock += 1;
    expect((await reader.effective()).ai.model_name).toBe("yolov8n");
    await waitFor(async () => (await reader.effective()).ai.model_name === "yolov8s");

    // A change made through this instance drops its copy at once.
    await setRaw("model_name", "yolov8m");
    await reader.changed(null);
    expect((await reader.effective()).ai.model_name).toBe("yolov8m");
    reader.close();
    await setRaw("model_name", "yolov8n");
  });

  it("keeps a store's copy as it keeps the global one, and announces a store's change by the store's id", async () => {
    let clock = 5_000_000;
    const told: [string, unknown][] = [];
    const bus: EventBus = {
      ...deafBus,
      publish: async (topic, message) => {
        told.push([topic, message]);
      },
    };
    const reader = createSettingsReader({ db: ctx.app.db, bus, logger: pino({ level: "silent" }), now: () => clock });
    const [row] = await queryRows<{ id: string }>(
      ctx.app.db,
      sql`insert into stores (name, custom_settings) values ('Kopia', '{"ai": {"model_name": "yolov8x"}}') returning id`,
    );
    const store = row!.id;
    try {
      expect((await reader.effective(store)).ai.model_name).toBe("yolov8x");
      await ctx.app.db.execute(
        sql`update stores set custom_settings = '{"ai": {"model_name": "yolov8s"}}'::jsonb where id = ${store}`,
      );
      clock += SETTINGS_CACHE_MS - 1;
      expect((await reader.effective(store)).ai.model_name).toBe("yolov8x");
      await reader.changed(store);
      expect((await reader.effective(store)).ai.model_name).toBe("yolov8s");
      expect(told).toEqual([[SETTINGS_TOPIC, { store_id: store }]]);
    } finally {
      reader.close();
    }
  });

  it("an announcement drops the copy it names: a store's, or the global one", async () => {
    const store = (
      (await ctx.app.db.execute(sql`insert into stores (name) values ('Buss') returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0]!.id;
    const reader = ctx.app.settings;
    await setRaw("model_name", "yolov8n");
    await reader.changed(null);
    // Its own announcement comes back over the bus too; let it pass before the copies are made.
    await sleep(300);
    expect((await reader.effective(store)).ai.model_name).toBe("yolov8n");

    // Written behind the reader's back, then announced the way another instance announces it.
    await ctx.app.db.execute(
      sql`update stores set custom_settings = '{"ai": {"model_name": "yolov8x"}}'::jsonb where id = ${store}`,
    );
    await setRaw("model_name", "yolov8s");
    await ctx.app.bus.publish(SETTINGS_TOPIC, { store_id: store });
    await waitFor(async () => (await reader.effective(store)).ai.model_name === "yolov8x");
    // The store's announcement left the global copy alone.
    expect((await reader.effective()).ai.model_name).toBe("yolov8n");
    await ctx.app.bus.publish(SETTINGS_TOPIC, { store_id: null });
    await waitFor(async () => (await reader.effective()).ai.model_name === "yolov8s");
    // A message of another shape counts as a global change.
    await setRaw("model_name", "yolov8m");
    await ctx.app.bus.publish(SETTINGS_TOPIC, "garbled");
    await waitFor(async () => (await reader.effective()).ai.model_name === "yolov8m");
    await setRaw("model_name", "yolov8n");
    await reader.changed(null);
  });

  it("a change is kept even when the bus cannot announce it", async () => {
    const failing: EventBus = { ...deafBus, publish: async () => Promise.reject(new Error("bus down")) };
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(line) });
    const reader = createSettingsReader({ db: ctx.app.db, bus: failing, logger });
    await expect(reader.changed(null)).resolves.toBeUndefined();
    expect(warnings.join("")).toContain("could not tell other instances that a setting changed");
    reader.close();
  });

  it("a failed read is not kept: the next call reads again", async () => {
    let fail = true;
    const db = new Proxy(ctx.app.db, {
      get(target, prop, receiver) {
        if (prop === "execute" && fail) return async () => Promise.reject(new Error("connection refused"));
        return Reflect.get(target, prop, receiver);
      },
    });
    const reader = createSettingsReader({ db, bus: deafBus, logger: pino({ level: "silent" }) });
    await expect(reader.effective()).rejects.toThrow("connection refused");
    fail = false;
    expect((await reader.effective()).ai.model_name).toBe("yolov8n");
    reader.close();
  });
});

describe.skipIf(!TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
  it("a change made on instance A is what instance B reads next, well before its copy would expire", async () => {
    const database = await openDatabase({
      databaseUrl: ctx.databaseUrl,
      logger: pino({ level: "silent" }),
      poolSize: 3,
    });
    const b = await buildApp(
      loadConfig({
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        SECRET_KEY: secret,
        DATA_DIR: ctx.dataDir,
        WEB_DIST: ctx.dataDir,
      }),
      { database },
    );
    try {
      await b.ready();
      await b.bus.ready();
      await ctx.app.bus.ready();
      const a = as(ctx.app, (await signIn(ctx.app)).cookie);
      const store = (await a.post("/api/v1/stores/", { name: "Två instanser" })).json().id as string;

      // B holds copies of the global values and of the store's overrides.
      expect((await b.settings.effective(store)).ai.confidence_threshold).toBe(0.5);

      expect((await a.put("/api/v1/settings/ai/confidence_threshold", { value: 0.35 })).statusCode).toBe(200);
      const started = Date.now();
      while ((await b.settings.effective()).ai.confidence_threshold !== 0.35) {
        if (Date.now() - started > 5_000) throw new Error("instance B still reads the old value after 5 s");
        await sleep(20);
      }

      const override = await a.put(`/api/v1/settings/stores/${store}`, {
        settings: { ai: { confidence_threshold: 0.9 } },
      });
      expect(override.statusCode).toBe(200);
      while ((await b.settings.effective(store)).ai.confidence_threshold !== 0.9) {
        if (Date.now() - started > 10_000) throw new Error("instance B still reads the store's old override");
        await sleep(20);
      }
      expect((await b.settings.effective()).ai.confidence_threshold).toBe(0.35);
      expect(Date.now() - started).toBeLessThan(SETTINGS_CACHE_MS);
    } finally {
      await b.close();
      await database.close();
    }
  });
});
