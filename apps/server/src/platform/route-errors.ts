import { errorSchema } from "@glide/contracts";

/** The HTTP statuses a route may answer with an error body. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 406 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503 | 504;

/**
 * The error part of a route's response schemas: each status listed answers
 * the one error shape (`detail`, `code`, field `errors`), so the OpenAPI
 * document lists what a client must handle and Fastify serialises it.
 * `{ ...errorResponses(400, 401, 404), 200: storeSchema }`.
 */
export function errorResponses<const S extends ErrorStatus>(
  ...statuses: readonly S[]
): { [K in S]: typeof errorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema])) as { [K in S]: typeof errorSchema };
}
