import { is, Placeholder, type SQL } from "drizzle-orm";
import type { PgDialect } from "drizzle-orm/pg-core";
import { type Db, sql, type Tx } from "./client.ts";

/** Where a value of type T goes in a statement built once: filled in by name on each call (preparedOnce). */
export type Slot<T> = Placeholder<string, T>;

/**
 * A raw statement built once, with `slots` (named placeholders) where each
 * call's values go, and sent as the named prepared statement `name` (as
 * queryPrepared sends one). A large statement built from its parts on every
 * call costs a hot path its SQL objects and its text each time, and they
 * are garbage the collector must then find (bench/results.md, Cart); here
 * each call only fills in its values. `build` is given a slot per value;
 * a helper that takes a value takes a slot in its place (`slot as never`).
 */
export function preparedOnce<V extends Record<string, unknown>, T>(
  name: string,
  build: (slots: { [K in keyof V]: Slot<V[K]> }) => SQL,
): PreparedOnce<V, T> {
  let query: ReturnType<PgDialect["sqlToQuery"]> | undefined;
  // Each slot is the placeholder of its own name, made as build asks for it.
  const text = (dialect: PgDialect) => {
    query ??= dialect.sqlToQuery(build(new Proxy({}, { get: (_, key) => sql.placeholder(String(key)) }) as never));
    return query;
  };
  const run = async (db: Db | Tx, values: V) => {
    const prepared = db._.session.prepareQuery(
      text((db as unknown as { dialect: PgDialect }).dialect),
      undefined,
      name,
      false,
    );
    const result = (await prepared.execute(values)) as { rows: T[] };
    return result.rows;
  };
  return Object.assign(run, {
    statement: (dialect: PgDialect) => {
      const { sql: statement, params } = text(dialect);
      return { sql: statement, params: params.map((p) => (is(p, Placeholder) ? { slot: p.name } : { value: p })) };
    },
  });
}

/**
 * A statement built once: called with a database and its values, it runs;
 * `statement` gives its text as sent, with each parameter either the slot
 * it is filled from or the value built into it (the bench drives the scan's
 * statement with pgbench from it).
 */
export type PreparedOnce<V, T> = ((db: Db | Tx, values: V) => Promise<T[]>) & {
  statement: (dialect: PgDialect) => { sql: string; params: ({ slot: string } | { value: unknown })[] };
};
