/** Typed errors that the one error handler turns into `{ detail, code }` responses. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  /** Per-field problems, for forms to mark each field. */
  readonly errors: { path: string; message: string }[] | undefined;
  constructor(status: number, code: string, detail: string, errors?: { path: string; message: string }[]) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

export const badRequest = (detail: string, code = "bad_request") => new AppError(400, code, detail);
export const unauthorized = (detail = "Sign in required", code = "unauthorized") => new AppError(401, code, detail);
export const forbidden = (detail: string, code = "forbidden") => new AppError(403, code, detail);
export const notFound = (detail: string, code = "not_found") => new AppError(404, code, detail);
export const conflict = (detail: string, code = "conflict") => new AppError(409, code, detail);
export const unprocessable = (detail: string, code = "validation_error") => new AppError(422, code, detail);
/** A rule broken by one field: the form shows `message` beside `path`. */
export const fieldError = (path: string, message: string, status = 422, code = "validation_error") =>
  new AppError(status, code, message, [{ path, message }]);
export const tooManyRequests = (detail: string, code = "rate_limited") => new AppError(429, code, detail);

/** PostgreSQL's unique_violation, raised by either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** PostgreSQL's foreign_key_violation, raised by either driver: a row referred to is gone. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23503" || e?.cause?.code === "23503";
}

/**
 * Errors that mean the database cannot be reached right now (refused, reset,
 * restarting, failing over, timed out), as opposed to a query that is wrong.
 * Such a request is answered 503 with Retry-After; a retry will work.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, recovering)
  "53300", // too_many_connections
]);
// pg's own words for a connection that died or never came up; "Query read timeout" is a server that stopped answering.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout|database did not answer|the database system is|terminating connection|Cannot use a pool after calling end/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * A request that waited too long for one of the pool's connections, all of
 * them busy with other requests: the database is answering, this instance is
 * busy. pg-pool's own words; a connection that could not be opened in time
 * says "connection timeout" instead, and is an outage.
 */
export function isPoolBusy(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as { message?: unknown; cause?: unknown };
  if (typeof e.message === "string" && /^timeout exceeded when trying to connect$/.test(e.message)) return true;
  return isPoolBusy(e.cause, depth + 1);
}

/**
 * What may be logged of an error: its type, code, the first line of its
 * message and its stack frames. Drizzle's "Failed query: <sql>\nparams:
 * <values>" loses its parameters, PostgreSQL's `detail` (which quotes the
 * values of a violated key) is left out, and a value PostgreSQL quotes at the
 * end of its message ('invalid input syntax for type uuid: "…"') is masked.
 */
export function safeError(error: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!error || typeof error !== "object" || depth > 3) return undefined;
  const e = error as {
    name?: string;
    type?: unknown;
    code?: unknown;
    message?: unknown;
    stack?: unknown;
    cause?: unknown;
  };
  const firstLine = typeof e.message === "string" ? (e.message.split("\n")[0] ?? "").slice(0, 500) : undefined;
  const message = firstLine?.replace(/: "[^"]*"?$/, ': "…"');
  const frames =
    typeof e.stack === "string"
      ? e.stack
          .split("\n")
          .filter((line) => line.trimStart().startsWith("at "))
          .slice(0, 15)
          .join("\n")
      : undefined;
  // `type` is kept from an error that went through here already, so applying it twice changes nothing.
  const type = e.name ?? (typeof e.type === "string" ? e.type : undefined);
  return { type, code: e.code, message, stack: frames, cause: safeError(e.cause, depth + 1) };
}
