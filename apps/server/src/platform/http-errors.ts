import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError, isDatabaseUnavailable, isPoolBusy, safeError } from "./errors.ts";

export { safeError };

/**
 * For the logger: every `err` that Fastify or our code logs (a failed hook, a
 * stream that broke after its headers, a 5xx) goes through safeError, so no
 * SQL parameter reaches the log whoever logs it.
 */
export const logSerializers = {
  err: (err: Error) => {
    const safe = safeError(err) ?? {};
    return {
      ...safe,
      type: String(safe.type ?? "Error"),
      message: String(safe.message ?? ""),
      stack: String(safe.stack ?? ""),
    };
  },
};

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
/** Seconds a client should wait before retrying when every connection of this instance was busy. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

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
  // Waiting for a pool connection is being busy, not an outage, unless the database's own probe says it is down.
  if (isPoolBusy(error) && (request.server.database?.health?.up ?? true)) {
    reply.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
    return send(reply, 503, "busy", "The service is busy right now; try again in a moment");
  }
  if (isDatabaseUnavailable(error) || isPoolBusy(error)) {
    // The outage itself is logged once per change of state by the database client, not per request.
    request.server.database?.health?.failed(error);
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

/** Fastify's router errors (bad URL encoding, an over-long path parameter) in our shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return errorHandler(error, request, reply);
}

/**
 * onSend hook: an error sent with no body (a plugin's bare `reply.code(404).send()`,
 * such as a plain GET to a WebSocket route) gets our shape too.
 */
export async function errorBodyForEmptyReplies(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const empty = payload === undefined || payload === null || payload === "";
  if (!empty || reply.statusCode < 400 || request.method === "HEAD") return payload;
  const status = reply.statusCode;
  const path = request.url.split("?")[0] ?? "";
  const detail = status === 404 ? `No route ${request.method} ${path}` : (STATUS_CODES[status] ?? "Request failed");
  const code = status === 404 ? "not_found" : (STATUS_CODES[status] ?? "error").toLowerCase().replace(/\W+/g, "_");
  reply.header("content-type", "application/json; charset=utf-8");
  return JSON.stringify({ detail, code });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a header
 * block over the size limit, a control character in the request line or a
 * header, a broken Content-Length) are answered in our shape too.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, detail]: [number, string, string] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "request_timeout", "The request took too long to arrive"]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "headers_too_large", "The request's address or headers are too large"]
        : [400, "bad_request", "The request is not valid HTTP"];
  this.log.debug({ err: safeError(error) }, "refused by the HTTP parser");
  if (socket.writable) {
    const body = JSON.stringify({ detail, code });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
