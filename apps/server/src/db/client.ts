import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgDialect, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import type { PoolClient } from "pg";
import { isDatabaseUnavailable, safeError } from "../platform/errors.ts";
import { lockFolder } from "./folder-lock.ts";
import { migrateDatabase, underStartLock } from "./migrate.ts";
import * as schema from "./schema/index.ts";

export { DataFolderLockedError } from "./folder-lock.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; use cases accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /** Resolves when the database answers; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /** Whether the database is reachable, as last seen; fed by failed queries and pings. */
  health: DatabaseHealth;
  close(): Promise<void>;
};

export type OpenOptions = {
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; omitted means in memory (tests). */
  dataDir?: string | undefined;
  /**
   * In memory only: start from this copy of a data folder (`pgliteImage`)
   * instead of an empty one, so the migrations it already holds are skipped.
   */
  startFrom?: Blob | undefined;
  poolSize?: number;
  /** How long a query waits for a free pool connection before the request is answered 503 busy (5 s). */
  poolWaitMs?: number;
  logger: FastifyBaseLogger;
};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl, opts) : await openPglite(opts);
  try {
    if (opts.databaseUrl) await underStartLock(opts.databaseUrl, () => migrateDatabase(database));
    else await migrateDatabase(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/**
 * An in-memory database with every migration applied, as a copy of its data
 * folder (an uncompressed tar) for `startFrom`: a test file's database then
 * opens in a fraction of the time the migrations take.
 */
export async function pgliteImage(logger: FastifyBaseLogger): Promise<Blob> {
  const database = await openDatabase({ logger });
  try {
    return await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  } finally {
    await database.close();
  }
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  // Drizzle gives each query its own type parsers, which fall back to pg's global ones: bigint is set there.
  pg.types.setTypeParser(pg.types.builtins.INT8, readInt8);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: opts.poolWaitMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
    query_timeout: 20_000,
  });
  // The health probe has a connection of its own: a pool busy with a burst is not a database that is down.
  const probe = probeConnection(pg, url);
  const select1 = (timeoutMs = 2_000) => probe.ping(timeoutMs);
  const ping = (timeoutMs?: number) => tracked(health, select1(timeoutMs));
  const health = healthTracker(opts.logger, select1);
  // An idle client whose server went away (restart, failover) emits here; the
  // pool drops it and the next query opens a fresh connection.
  pool.on("error", (err) => health.failed(err));

  // Clients handed out by connect() (Drizzle's transactions), with the release that puts each back.
  const checkedOut = new Map<PoolClient, () => void>();
  pool.on("connect", (client) => {
    health.succeeded();
    // The pool listens for errors only while a client is idle; a checked-out client whose server
    // goes away would emit with no listener and bring the process down, so every client keeps one.
    client.on("error", (err) => {
      health.failed(err);
      // A transaction whose BEGIN failed never releases its client (Drizzle releases only after
      // BEGIN), so a dead checked-out client goes back to be discarded; the holder's own release
      // becomes a no-op, and its further queries fail as they would have on the dead connection.
      const release = checkedOut.get(client);
      if (release) setImmediate(release);
    });
  });
  const connect = pool.connect.bind(pool);
  pool.connect = ((callback?: Parameters<typeof pool.connect>[0]) => {
    if (callback) {
      return connect((err, client, done) => {
        if (err) health.failed(err);
        callback(err, client, done);
      });
    }
    return connect().then(
      (client) => {
        const release = client.release.bind(client);
        let released = false;
        const once = (err?: Error | boolean) => {
          if (released) return;
          released = true;
          checkedOut.delete(client);
          release(err);
        };
        client.release = once;
        checkedOut.set(client, () => once(true));
        return client;
      },
      (err: unknown) => {
        health.failed(err);
        throw err;
      },
    );
  }) as typeof pool.connect;

  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    ping,
    health,
    close: async () => {
      health.stop();
      await probe.end();
      await pool.end();
    },
  };
}

/**
 * Money in öre is bigint from the cart to the charge; node-postgres reads
 * bigint (int8) as text, PGlite as a number. Both read it as a number here,
 * which holds every amount this system allows exactly (a cart is at most
 * 999,999 kr; a number is exact to 2^53).
 */
function readInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`an integer beyond 2^53 was read: ${value}`);
  return n;
}

/**
 * One connection kept apart from the pool, for `select 1`: a failed or slow
 * answer drops it, and the next ping connects again.
 */
function probeConnection(pg: typeof import("pg").default, url: string) {
  let current: Promise<import("pg").Client> | null = null;
  const drop = (client: Promise<import("pg").Client>) => {
    if (current === client) current = null;
    client.then((c) => c.end()).catch(() => {});
  };
  const connected = () => {
    if (current) return current;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    const ready = client.connect().then(() => client);
    // A connection that breaks between pings is dropped; the next ping opens another.
    client.on("error", () => drop(ready));
    ready.catch(() => drop(ready));
    current = ready;
    return ready;
  };
  // One `select 1` at a time on the one connection: pings that arrive meanwhile share its answer.
  let asking: Promise<void> | null = null;
  return {
    async ping(timeoutMs: number) {
      const client = connected();
      asking ??= client
        .then((c) => c.query("select 1"))
        .then(
          () => {},
          (err: unknown) => {
            drop(client);
            throw err;
          },
        )
        .finally(() => {
          asking = null;
        });
      try {
        await withTimeout(asking, timeoutMs);
      } catch (err) {
        drop(client);
        throw err;
      }
    },
    async end() {
      if (current) await current.then((c) => c.end()).catch(() => {});
      current = null;
    },
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
    release = await lockFolder(opts.dataDir);
    try {
      client = await PGlite.create(dir, pgliteOptions);
    } catch (err) {
      release();
      throw err;
    }
  } else {
    client = await PGlite.create({ ...pgliteOptions, ...(opts.startFrom ? { loadDataDir: opts.startFrom } : {}) });
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  const select1 = (timeoutMs = 2_000) => withTimeout(client.query("select 1"), timeoutMs);
  const ping = (timeoutMs?: number) => tracked(health, select1(timeoutMs));
  const health = healthTracker(opts.logger, select1);
  return {
    kind: "pglite",
    db,
    ping,
    health,
    close: async () => {
      health.stop();
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

export type DatabaseHealth = {
  /** False from the first failure that means "unreachable" until the database answers again. */
  readonly up: boolean;
  /** Reports a failed query or connection; errors of a wrong query do not count. */
  failed(err: unknown): void;
  succeeded(): void;
};

/** How often a database that went away is asked whether it is back. */
export const PROBE_INTERVAL_MS = 250;

/**
 * The database's reachability, logged once per change (one warning when it
 * goes, one line when it is back) rather than once per failed request. A
 * failure is confirmed by a ping of its own before the state changes, so a
 * late error from a request that started during the outage does not flap it.
 * While it is away a probe asks every PROBE_INTERVAL_MS, so its return is
 * noticed (and logged) even when no request comes.
 */
function healthTracker(logger: FastifyBaseLogger, probe: () => Promise<unknown>): DatabaseHealth & { stop(): void } {
  let state: "up" | "checking" | "down" = "up";
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  let probing = false;
  let stopped = false;
  const goDown = (err: unknown) => {
    state = "down";
    since = Date.now();
    logger.warn({ err: safeError(err) }, "database unreachable; requests get 503 until it is back");
    timer = setInterval(() => {
      if (probing) return;
      probing = true;
      probe()
        .then(() => health.succeeded())
        .catch(() => {})
        .finally(() => {
          probing = false;
        });
    }, PROBE_INTERVAL_MS);
    timer.unref();
  };
  const health = {
    get up() {
      return state !== "down";
    },
    failed(err: unknown) {
      // After close, a late failure is the pool being gone, not the database.
      if (stopped || state !== "up" || !isDatabaseUnavailable(err)) return;
      state = "checking";
      probe().then(
        () => {
          if (state === "checking") state = "up";
        },
        (cause: unknown) => {
          if (state === "checking" && !stopped) goDown(cause);
        },
      );
    },
    succeeded() {
      if (state === "checking") state = "up";
      if (state !== "down") return;
      state = "up";
      clearInterval(timer);
      logger.info({ down_ms: Date.now() - since }, "database reachable again");
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
  return health;
}

/** A ping's outcome reported to the tracker. */
function tracked(health: DatabaseHealth, query: Promise<unknown>): Promise<void> {
  return query.then(
    () => health.succeeded(),
    (err: unknown) => {
      health.failed(err);
      throw err;
    },
  );
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

/** The one row of a query that always answers one, such as an aggregate without GROUP BY. */
export async function queryOne<T>(db: Db | Tx, query: SQL): Promise<T> {
  const [row] = await queryRows<T>(db, query);
  if (row === undefined) throw new Error("the query answered no row");
  return row;
}

/**
 * Rows of a raw SQL query sent as a named prepared statement: PostgreSQL
 * parses and plans it once per pooled connection instead of on every call,
 * which for a statement on a hot path can cost more than running it. Each
 * `name` must always carry the same SQL text (its parameters may differ).
 * PGlite runs it as an ordinary query.
 */
export async function queryPrepared<T>(db: Db | Tx, name: string, query: SQL): Promise<T[]> {
  // What db.execute does, with a name: Drizzle exposes naming only on its query builders.
  const { dialect } = db as unknown as { dialect: PgDialect };
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}
