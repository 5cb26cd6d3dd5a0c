import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../test/harness.ts";
import { type Database, openDatabase, queryRows, sql } from "./client.ts";

/**
 * Several instances started at once on an empty PostgreSQL database (a
 * deployment's first start, a rolling restart with a new migration): one
 * applies the migrations, the others wait for it and find nothing left to
 * do; none exits with a migration error.
 */
describe.skipIf(!TEST_DATABASE_URL)("migrations with several instances starting at once", () => {
  const name = `glide_migrate_${randomBytes(6).toString("hex")}`;
  const url = new URL(TEST_DATABASE_URL ?? "postgres://localhost/x");
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const opened: Database[] = [];

  beforeAll(async () => {
    await admin(`create database ${name}`);
  });
  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
    await admin(`drop database if exists ${name} with (force)`);
  });

  it("all start: each migration is applied once, and the schema is whole", async () => {
    const logger = pino({ level: "silent" });
    const starts = await Promise.allSettled(
      Array.from({ length: 3 }, () => openDatabase({ databaseUrl: url.toString(), logger, poolSize: 2 })),
    );
    for (const start of starts) if (start.status === "fulfilled") opened.push(start.value);
    expect(starts.map((start) => (start.status === "rejected" ? String(start.reason) : "started"))).toEqual([
      "started",
      "started",
      "started",
    ]);
    const [first] = opened;
    const [{ applied }] = (await queryRows<{ applied: number }>(
      first!.db,
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    )) as [{ applied: number }];
    const journal = (await import("./migrations/meta/_journal.json", { with: { type: "json" } })).default;
    expect(applied).toBe(journal.entries.length);
    // The last migration's table is there for every instance.
    for (const database of opened)
      expect(await queryRows(database.db, sql`select 1 from issued_pant_vouchers limit 1`)).toEqual([]);
  });
});
