import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "./errors.ts";

type Issue = { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } };

/** "settings.vat_rate: VAT rate must be between 0 and 100 %" */
function describeIssue(issue: Issue, where: string): string {
  const pathParts = issue.params?.issue?.path ?? issue.instancePath?.split("/").filter(Boolean) ?? [];
  const field = pathParts.map(String).join(".");
  const message = issue.message ?? "is invalid";
  return field ? `${field}: ${message}` : `${where}: ${message}`;
}

/** One place that turns every failure into `{ detail, code }` with the right status. */
export function errorHandler(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply.status(error.status).send({ detail: error.message, code: error.code });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? "body";
    const detail = (error.validation as Issue[]).map((i) => describeIssue(i, where)).join("; ");
    // A body that parses but breaks the rules is unprocessable; bad paths and queries are bad requests.
    const status = where === "body" ? 422 : 400;
    return reply.status(status).send({ detail, code: "validation_error" });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
    return reply.status(500).send({ detail: "Internal server error", code: "internal" });
  }
  const fe = error as FastifyError;
  const known: Record<string, [number, string, string]> = {
    FST_ERR_CTP_INVALID_JSON_BODY: [400, "malformed_json", "Request body is not valid JSON"],
    FST_ERR_CTP_EMPTY_JSON_BODY: [400, "malformed_json", "Request body is empty but Content-Type is application/json"],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, "unsupported_media_type", "Unsupported Content-Type; send application/json"],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "bad_request", "Content-Length does not match the body"],
  };
  if (fe.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
    const mb = Math.round((limit / 1024 / 1024) * 10) / 10;
    return reply
      .status(413)
      .send({ detail: `Request body is larger than the limit of ${mb} MB`, code: "payload_too_large" });
  }
  const match = fe.code ? known[fe.code] : undefined;
  if (match) return reply.status(match[0]).send({ detail: match[2], code: match[1] });
  if (error instanceof SyntaxError && (fe.statusCode ?? 500) === 400) {
    return reply.status(400).send({ detail: "Request body is not valid JSON", code: "malformed_json" });
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply.status(fe.statusCode).send({ detail: fe.message, code: (fe.code ?? "bad_request").toLowerCase() });
  }
  request.log.error({ err: error }, "unhandled error");
  return reply.status(500).send({ detail: "Internal server error", code: "internal" });
}
