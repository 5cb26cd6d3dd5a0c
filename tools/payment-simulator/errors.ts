/**
 * Stripe's error answer, `{ error: { type, code, decline_code, message, param } }`
 * with the HTTP status the `stripe` package turns into its error classes
 * (400/404 invalid request or idempotency, 401 authentication, 402 card, 409
 * conflict, 5xx API error).
 */
export type StripeErrorBody = {
  type: "invalid_request_error" | "card_error" | "idempotency_error" | "api_error" | "authentication_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  [key: string]: unknown;
};

export class ApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  /**
   * Whether the answer is kept under the request's Idempotency-Key. As at
   * Stripe, a request refused before it began (bad parameters) keeps nothing,
   * so the same key may be used again with corrected parameters.
   */
  readonly saved: boolean;
  constructor(status: number, body: StripeErrorBody, saved: boolean) {
    super(body.message);
    this.status = status;
    this.body = body;
    this.saved = saved;
  }
}

/** A malformed request: nothing was done and nothing is kept under its key. */
export const invalidParam = (message: string, param?: string, code = "parameter_invalid") =>
  new ApiError(400, { type: "invalid_request_error", code, message, ...(param ? { param } : {}) }, false);

export const missingParam = (param: string) =>
  invalidParam(`Missing required param: ${param}.`, param, "parameter_missing");

/** Refused after looking at the objects (wrong state, no such object): kept under the key. */
export const refused = (message: string, extra: Partial<StripeErrorBody> = {}, status = 400) =>
  new ApiError(status, { type: "invalid_request_error", message, ...extra }, true);

/** An id that names nothing: 404 when it is the path's object, 400 when a parameter names it. */
export const noSuch = (what: string, id: string, param = "id") =>
  new ApiError(
    param === "id" ? 404 : 400,
    { type: "invalid_request_error", code: "resource_missing", param, message: `No such ${what}: '${id}'` },
    true,
  );
