import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "./client.ts";

/**
 * Migration 0018 on a database that has lived before it: products priced by
 * percent get the VAT category their rate and name point to, and the default
 * rate setting (global and a store's own) becomes a default category. The
 * database is migrated up to 0017 from a copy of the migrations whose journal
 * ends there, filled as the old code would have, then opened as the server
 * opens it, which runs the rest. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

const LAST_BEFORE = 17;
const logger = pino({ level: "silent" });
const serverUrl = process.env.TEST_DATABASE_URL;

/** The migrations as they stood before VAT categories: a copy whose journal stops at 0017. */
function migrationsUpTo(idx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "glide-migrations-"));
  cpSync(path.join(import.meta.dirname, "migrations"), dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= idx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** What the old code wrote: products with a rate in hundredths of a percent, the default rate as a fraction. */
const OLD_ROWS = `
  insert into products (sku, name, category, price_ore, vat_rate_bp) values
    ('folkol', 'Folköl 3,5 %', 'Dryck', 1500, 2500),
    ('lattol', 'Lättöl 2,2 %', null, 1200, 2500),
    ('starkol', 'Starköl 5,3 %', 'Dryck', 2500, 2500),
    ('vin', 'Vin 13,5 %', null, 9900, 2500),
    ('tidning', 'Dagens Nyheter tidning', null, 4000, 600),
    ('mjolk', 'Mjölk', 'Mejeri', 1900, 1200),
    ('frimarke', 'Frimärke', null, 1200, 0),
    ('tandkram', 'Tandkräm', 'Hygien', 3500, 2500);
  insert into settings (category, key, value, description) values
    ('product', 'default_vat_rate', '0.12'::jsonb, 'Default VAT rate');
  insert into stores (name, custom_settings) values
    ('Matbutiken', '{"product": {"default_vat_rate": 0.06, "currency_symbol": "kr"}}'::jsonb),
    ('Kiosken', '{"product": {"default_vat_rate": 0.25}}'::jsonb),
    ('Vanliga', '{}'::jsonb);`;

let database: Database;
let cleanUp = async () => {};

/** A database at 0017 with the old rows, then migrated fully by openDatabase. */
async function migratedFromOld(): Promise<Database> {
  const folder = migrationsUpTo(LAST_BEFORE);
  try {
    if (!serverUrl) {
      const client = await PGlite.create({ extensions: { pg_trgm } });
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.exec(OLD_ROWS);
      const image = await client.dumpDataDir("none");
      await client.close();
      return openDatabase({ logger, startFrom: image });
    }
    const name = `glide_vat_migration_${randomBytes(6).toString("hex")}`;
    await onServer(`create database ${name}`);
    cleanUp = () => onServer(`drop database if exists ${name} with (force)`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    await migrate(drizzle(pool), { migrationsFolder: folder });
    await pool.query(OLD_ROWS);
    await pool.end();
    return openDatabase({ databaseUrl: url.toString(), logger, poolSize: 2 });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await migratedFromOld();
}, 120_000);
afterAll(async () => {
  await database?.close();
  await cleanUp();
});

describe("migrating a database from before VAT categories", () => {
  it("gives each product the category its old rate and its name point to", async () => {
    const rows = await queryRows<{ sku: string; vat_category: string }>(
      database.db,
      sql`select sku, vat_category from products order by sku`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.sku, r.vat_category]))).toEqual({
      folkol: "food",
      lattol: "food",
      starkol: "alcoholic_drink",
      vin: "alcoholic_drink",
      tidning: "books_newspapers",
      mjolk: "food",
      frimarke: "exempt",
      tandkram: "standard",
    });
  });

  it("drops the old rate column", async () => {
    const columns = await queryRows<{ column_name: string }>(
      database.db,
      sql`select column_name from information_schema.columns where table_name = 'products' and column_name like 'vat%'`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(["vat_category"]);
  });

  it("turns the default rate setting into a default category", async () => {
    const rows = await queryRows<{ key: string; value: unknown }>(
      database.db,
      sql`select key, value from settings where category = 'product' and key like 'default_vat%'`,
    );
    expect(rows).toEqual([{ key: "default_vat_category", value: "food" }]);
  });

  it("turns a store's own default rate into its default category, and leaves the rest of its settings", async () => {
    const rows = await queryRows<{ name: string; custom_settings: unknown }>(
      database.db,
      sql`select name, custom_settings from stores order by name`,
    );
    expect(rows).toEqual([
      { name: "Kiosken", custom_settings: { product: { default_vat_category: "standard" } } },
      {
        name: "Matbutiken",
        custom_settings: { product: { default_vat_category: "food", currency_symbol: "kr" } },
      },
      { name: "Vanliga", custom_settings: {} },
    ]);
  });

  it("seeds Sweden's rates, the 6 % food period included", async () => {
    const rows = await queryRows<{ category: string; rate_bp: number; valid_from: string; valid_to: string | null }>(
      database.db,
      sql`select category, rate_bp, valid_from::text as valid_from, valid_to::text as valid_to
          from vat_rates where country = 'SE' and category = 'food' order by valid_from`,
    );
    expect(rows).toEqual([
      { category: "food", rate_bp: 1200, valid_from: "1996-01-01", valid_to: "2026-03-31" },
      { category: "food", rate_bp: 600, valid_from: "2026-04-01", valid_to: "2027-12-31" },
      { category: "food", rate_bp: 1200, valid_from: "2028-01-01", valid_to: null },
    ]);
  });
});
