import path from "node:path";

const migrationsFolder = path.join(import.meta.dirname, "migrations");

/** Applies the migrations not yet applied, with the driver's own migrator. */
export async function migrateDatabase(database: { kind: "pglite" | "postgres"; db: unknown }): Promise<void> {
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

/** The advisory lock the instances of one database take turns at first-start work under ("glide mi"). */
const MIGRATION_LOCK = 0x676c_6964_656d_69n;

/**
 * Runs `work` while holding a session advisory lock on a connection of its
 * own: of several instances started at once on one database, one applies the
 * migrations (or makes the first admin) and the others wait, then find
 * nothing left to do. The connection has no statement timeout, as the wait
 * lasts as long as the work; the lock goes with it if this process dies.
 */
export async function underStartLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK.toString()]);
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK.toString()]);
    }
  } finally {
    await client.end();
  }
}
