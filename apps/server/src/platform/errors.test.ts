import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isPoolBusy, safeError } from "./errors.ts";
import { logSerializers } from "./http-errors.ts";

/** An error shaped as pg raises it: PostgreSQL's code and severity on the error itself. */
function pgError(message: string, code: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), { code, severity: "FATAL", ...extra });
}

/** Drizzle's wrapper: the SQL and its parameters in the message, the driver's error as the cause. */
function drizzleError(cause: unknown) {
  return Object.assign(new Error("Failed query: insert into admins (email) values ($1)\nparams: anna@example.se"), {
    cause,
  });
}

describe("isDatabaseUnavailable", () => {
  it("recognises what a restart, a stopped server and a dead connection raise, wrapped or not", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const shapes = [
      pgError("terminating connection due to administrator command", "57P01"),
      pgError("the database system is shutting down", "57P03"),
      pgError("the database system is starting up", "57P03"),
      refused,
      // localhost resolves to ::1 and 127.0.0.1: Node reports both refusals together.
      new AggregateError([refused, refused], ""),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("Client was closed and is not queryable"),
      new Error("Query read timeout"),
      new Error("database did not answer within 2000 ms"),
      pgError("could not connect", "08006"),
    ];
    for (const err of shapes) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      expect(isDatabaseUnavailable(drizzleError(err)), `wrapped ${err}`).toBe(true);
    }
  });

  it("leaves a wrong query, a broken rule and anything else to be a 500 or a 4xx", () => {
    const shapes = [
      pgError('relation "nope" does not exist', "42P01"),
      pgError("duplicate key value violates unique constraint", "23505"),
      pgError("canceling statement due to statement timeout", "57014"),
      new TypeError("Cannot read properties of undefined"),
      "ECONNREFUSED",
      null,
      undefined,
    ];
    for (const err of shapes) expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    expect(isDatabaseUnavailable(drizzleError(pgError("syntax error", "42601")))).toBe(false);
  });
});

describe("isPoolBusy", () => {
  it("tells a wait for a busy pool from an outage: only pg-pool's queue timeout, wrapped or not", () => {
    const waited = new Error("timeout exceeded when trying to connect");
    expect(isPoolBusy(waited)).toBe(true);
    expect(isPoolBusy(drizzleError(waited))).toBe(true);
    expect(isDatabaseUnavailable(waited)).toBe(false);
    // A connection that could not be opened in time is the database's fault, not the pool's.
    const notOpened = new Error("Connection terminated due to connection timeout");
    expect(isPoolBusy(notOpened)).toBe(false);
    expect(isDatabaseUnavailable(notOpened)).toBe(true);
    for (const other of [new Error("timeout exceeded when trying to connect, and more"), null, "busy"])
      expect(isPoolBusy(other)).toBe(false);
  });
});

describe("safeError", () => {
  it("keeps the type, code and first line, never the parameters, PostgreSQL's detail or a quoted value", () => {
    const cause = pgError('invalid input syntax for type uuid: "anna@example.se"', "22P02", {
      detail: "Key (email)=(anna@example.se) already exists.",
    });
    const safe = safeError(drizzleError(cause));
    const text = JSON.stringify(safe);
    expect(text).not.toContain("anna@example.se");
    expect(safe).toMatchObject({
      type: "Error",
      message: "Failed query: insert into admins (email) values ($1)",
      cause: { code: "22P02", message: 'invalid input syntax for type uuid: "…"' },
    });
    // A constraint's name in the middle of the message is no value and stays.
    expect(
      safeError(pgError('duplicate key value violates unique constraint "admins_email_key"', "23505")),
    ).toMatchObject({ message: 'duplicate key value violates unique constraint "admins_email_key"' });
  });

  it("is what the logger writes for any err, and applying it twice changes nothing", () => {
    const logged = logSerializers.err(drizzleError(new Error("boom")));
    expect(JSON.stringify(logged)).not.toContain("anna@example.se");
    expect(logged.type).toBe("Error");
    expect(logSerializers.err(logged as unknown as Error)).toEqual(logged);
  });
});
