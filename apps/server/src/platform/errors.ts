/** Typed errors that the one error handler turns into `{ detail, code }` responses. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, detail: string) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

export const badRequest = (detail: string, code = "bad_request") => new AppError(400, code, detail);
export const unauthorized = (detail = "Sign in required", code = "unauthorized") => new AppError(401, code, detail);
export const forbidden = (detail: string, code = "forbidden") => new AppError(403, code, detail);
export const notFound = (detail: string, code = "not_found") => new AppError(404, code, detail);
export const conflict = (detail: string, code = "conflict") => new AppError(409, code, detail);
export const unprocessable = (detail: string, code = "validation_error") => new AppError(422, code, detail);
export const tooManyRequests = (detail: string, code = "rate_limited") => new AppError(429, code, detail);

/** PostgreSQL's unique_violation, raised by either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}
