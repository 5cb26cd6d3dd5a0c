import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError, isDatabaseUnavailable } from "./errors.ts";

type FieldError = { path: string; message: string };
type Issue = {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: {
    origin?: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    inclusive?: boolean;
    expected?: string;
    format?: string;
    values?: unknown[];
    keys?: string[];
  };
};

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** zod's own wording is for developers; a custom message from a schema is kept as it is. */
const ZOD_DEFAULT =
  /^(Invalid input|Too (big|small)|Invalid (string|option|element|key|value|union)|Unrecognized key|Expected)/;

/** The words a form shows beside the field. */
export function issueMessage(issue: Issue): string {
  const msg = issue.message ?? "";
  if (msg && !ZOD_DEFAULT.test(msg)) return msg;
  const p = issue.params ?? {};
  const n = (v: number | bigint | undefined) => Number(v ?? 0).toLocaleString("en-US");
  switch (issue.keyword) {
    case "too_big":
      if (p.origin === "string") return `Must be at most ${n(p.maximum)} characters`;
      if (p.origin === "array" || p.origin === "set") return `Must have at most ${n(p.maximum)} entries`;
      return p.inclusive === false ? `Must be less than ${n(p.maximum)}` : `Must be at most ${n(p.maximum)}`;
    case "too_small":
      if (p.origin === "string")
        return Number(p.minimum) <= 1 ? "Required" : `Must be at least ${n(p.minimum)} characters`;
      if (p.origin === "array" || p.origin === "set") return `Must have at least ${n(p.minimum)} entries`;
      return p.inclusive === false ? `Must be more than ${n(p.minimum)}` : `Must be at least ${n(p.minimum)}`;
    case "invalid_type":
      if (/received undefined/.test(msg)) return "Required";
      if (p.expected === "int") return "Must be a whole number";
      if (p.expected === "number") return "Must be a number";
      if (p.expected === "string") return "Must be text";
      if (p.expected === "boolean") return "Must be true or false";
      if (p.expected === "array") return "Must be a list";
      if (p.expected === "object") return "Must be an object";
      return `Must be ${p.expected ?? "of another type"}`;
    case "invalid_format":
      if (p.format === "uuid" || p.format === "guid") return "Must be a valid id (UUID)";
      if (p.format === "email") return "Must be a valid e-mail address";
      if (p.format === "url") return "Must be a valid web address";
      return `Must be a valid ${p.format ?? "value"}`;
    case "invalid_value":
      if (p.values && p.values.length <= 12) return `Must be one of: ${p.values.map(String).join(", ")}`;
      return "Is not one of the allowed values";
    case "unrecognized_keys":
      return `Unknown field${(p.keys?.length ?? 0) === 1 ? "" : "s"}: ${(p.keys ?? []).join(", ")}`;
    default:
      return msg || "Is invalid";
  }
}

/**
 * One line for API clients: the first problem with the field's API name
 * ("settings.vat_rate: VAT rate must be between 0 and 100 %"), then how many
 * more. Forms use `errors` instead and put each message beside its field.
 */
export function summarise(errors: FieldError[], where: string): string {
  const [first] = errors;
  if (!first) return "The request is invalid";
  const more = errors.length - 1;
  const head = `${first.path || where}: ${first.message}`;
  return more > 0 ? `${head} (and ${more} more problem${more === 1 ? "" : "s"})` : head;
}

function send(reply: FastifyReply, status: number, code: string, detail: string, errors?: FieldError[]) {
  return reply.status(status).send(errors ? { detail, code, errors } : { detail, code });
}

/** One place that turns every failure into `{ detail, code }` with the right status. */
export function errorHandler(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return send(reply, error.status, error.code, error.message, error.errors);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? "body";
    const errors = (error.validation as Issue[]).map((issue) => ({
      path: (issue.instancePath ?? "").split("/").filter(Boolean).join("."),
      message: issueMessage(issue),
    }));
    // A body that parses but breaks the rules is unprocessable; bad paths and queries are bad requests.
    return send(reply, where === "body" ? 422 : 400, "validation_error", summarise(errors, where), errors);
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
    return send(reply, 500, "internal", "Internal server error");
  }
  if (isDatabaseUnavailable(error)) {
    // The outage itself is logged once per change of state by the database client, not per request.
    reply.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
    return send(reply, 503, "database_unavailable", "The database is not available right now; try again shortly");
  }
  const fe = error as FastifyError;
  const known: Record<string, [number, string, string]> = {
    FST_ERR_CTP_INVALID_JSON_BODY: [400, "malformed_json", "Request body is not valid JSON"],
    FST_ERR_CTP_EMPTY_JSON_BODY: [400, "malformed_json", "Request body is empty but Content-Type is application/json"],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, "unsupported_media_type", "Unsupported Content-Type; send application/json"],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "bad_request", "Content-Length does not match the body"],
    FST_ERR_BAD_URL: [400, "bad_url", "The address is not validly encoded"],
    FST_ERR_MAX_PARAM_LENGTH: [414, "uri_too_long", "A part of the address is too long"],
    FST_ERR_ASYNC_CONSTRAINT: [400, "bad_request", "The request could not be routed"],
  };
  if (fe.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
    const mb = Math.round((limit / 1024 / 1024) * 10) / 10;
    return send(reply, 413, "payload_too_large", `Request body is larger than the limit of ${mb} MB`);
  }
  const match = fe.code ? known[fe.code] : undefined;
  if (match) return send(reply, match[0], match[1], match[2]);
  if (error instanceof SyntaxError && (fe.statusCode ?? 500) === 400) {
    return send(reply, 400, "malformed_json", "Request body is not valid JSON");
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return send(reply, fe.statusCode, (fe.code ?? "bad_request").toLowerCase(), fe.message);
  }
  // Never the error object itself: a query error's message carries the SQL and its parameters.
  request.log.error({ err: safeError(error) }, "unhandled error");
  return send(reply, 500, "internal", "Internal server error");
}

/**
 * What may be logged of an error: its type, code, the first line of its
 * message and its stack frames. Drizzle's "Failed query: <sql>\nparams:
 * <values>" loses its parameters, and PostgreSQL's `detail` (which quotes the
 * values of a violated key) is left out.
 */
export function safeError(error: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!error || typeof error !== "object" || depth > 3) return undefined;
  const e = error as { name?: string; code?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
  const message = typeof e.message === "string" ? (e.message.split("\n")[0] ?? "").slice(0, 500) : undefined;
  const frames =
    typeof e.stack === "string"
      ? e.stack
          .split("\n")
          .filter((line) => line.trimStart().startsWith("at "))
          .slice(0, 15)
          .join("\n")
      : undefined;
  return { type: e.name, code: e.code, message, stack: frames, cause: safeError(e.cause, depth + 1) };
}

/** Fastify's router errors (bad URL encoding, an over-long path parameter) in our shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return errorHandler(error, request, reply);
}
