import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import * as schema from "./schema/index.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; use cases accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /** Resolves when the database answers; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.join(import.meta.dirname, "migrations");

export type OpenOptions = {
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; omitted means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  logger: FastifyBaseLogger;
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl, opts) : await openPglite(opts);
  try {
    await migrateDatabase(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migrate(database.db as any, { migrationsFolder });
  } else {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migrate(database.db as any, { migrationsFolder });
  }
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
    query_timeout: 20_000,
  });
  // An idle client whose server went away (restart, failover) emits here; the
  // pool drops it and the next query opens a fresh connection.
  pool.on("error", (err) => opts.logger.warn({ err: err.message }, "database connection lost"));
  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    ping: (timeoutMs = 2_000) =>
      withTimeout(
        pool.query("select 1").then(() => undefined),
        timeoutMs,
      ),
    close: () => pool.end(),
  };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const pgliteOptions = { extensions: { pg_trgm } };
  let release = () => {};
  let client: PGlite;
  if (opts.dataDir) {
    const dir = path.join(opts.dataDir, "db");
    mkdirSync(dir, { recursive: true });
    release = lockFolder(opts.dataDir);
    try {
      client = await PGlite.create(dir, pgliteOptions);
    } catch (err) {
      release();
      throw err;
    }
  } else {
    client = await PGlite.create(pgliteOptions);
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    ping: (timeoutMs = 2_000) =>
      withTimeout(
        client.query("select 1").then(() => undefined),
        timeoutMs,
      ),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

export class DataFolderLockedError extends Error {}

/**
 * PGlite is single-process: a second process opening the same folder would
 * corrupt it. A lock file holding our pid keeps it out; a lock left by a
 * process that no longer runs is taken over.
 */
function lockFolder(dataDir: string): () => void {
  const file = path.join(dataDir, "db.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (pid && (pid === process.pid || isRunning(pid))) {
        throw new DataFolderLockedError(
          `The data folder ${dataDir} is in use by another process (pid ${pid}). ` +
            "Stop it first, or set DATA_DIR to another folder.",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataFolderLockedError(`Could not lock the data folder ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export { sql };

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
