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

/** The advisory lock the instances of one database take turns at migrating under ("glide mi"). */
const MIGRATION_LOCK = 0x676c_6964_656d_69n;

/**
 * Runs `migrate` while holding a session advisory lock on a connection of
 * its own: of several instances started at once on one database, one applies
 * the migrations and the others wait, then find nothing left to apply. The
 * connection has no statement timeout, as the wait lasts as long as the
 * migrations; the lock goes with it if this process dies.
 */
export async function underMigrationLock(url: string, migrate: () => Promise<void>): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK.toString()]);
    try {
      await migrate();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK.toString()]);
    }
  } finally {
    await client.end();
  }
}
