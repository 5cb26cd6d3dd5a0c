import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../test/harness.ts";
import { sql } from "./client.ts";
import { preparedOnce } from "./prepared.ts";

type Values = { a: number; b: string };
const statement = preparedOnce<Values, { sum: number; b: string; n: number }>("prepared_once_test", (v) => {
  const built = 40;
  return sql`select ${v.a}::int + ${built}::int as sum, ${v.b}::text as b, ${v.a}::int * 2 as n`;
});

describe("a statement built once", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.database.close();
    await db.drop();
  });

  it("runs with each call's values in its slots, and again with others", async () => {
    expect(await statement(db.database.db, { a: 2, b: "x" })).toEqual([{ sum: 42, b: "x", n: 4 }]);
    expect(await statement(db.database.db, { a: -40, b: "y" })).toEqual([{ sum: 0, b: "y", n: -80 }]);
  });

  it("tells its text with each parameter's slot, or the value built into it, in the order sent", () => {
    const told = statement.statement(new PgDialect());
    expect(told.sql).toBe("select $1::int + $2::int as sum, $3::text as b, $4::int * 2 as n");
    expect(told.params).toEqual([{ slot: "a" }, { value: 40 }, { slot: "b" }, { slot: "a" }]);
  });
});
