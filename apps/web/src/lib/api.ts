import type { ApiError as ApiErrorBody, FieldError } from "@glide/contracts";
import type { z } from "zod";

/** Empty means same-origin: the API is served by the same service as the app. */
const baseUrl = (import.meta.env.VITE_API_BASE_URL ?? "").replace(/\/+$/, "");

/** A non-OK answer from the API, carrying the status, the server's `detail` and its per-field problems. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string | undefined;
  /** Each field that broke a rule, with words to show beside it; empty when the problem is not a field's. */
  readonly errors: FieldError[];

  constructor(status: number, detail: string, code?: string, errors: FieldError[] = []) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.errors = errors;
  }
}

function fieldErrorsOf(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const { path, message } = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    return typeof path === "string" && typeof message === "string" && message ? [{ path, message }] : [];
  });
}

/** The server answered OK, but not with the shape the contract promises. */
export class UnexpectedResponseError extends Error {
  constructor(path: string, cause: unknown) {
    super(`Unexpected response from ${path}`, { cause });
    this.name = "UnexpectedResponseError";
  }
}

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Query = Record<string, string | number | boolean | null | undefined>;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Sent as it is (an image file, CSV text) with this Content-Type, instead of `body` as JSON. */
  raw?: { body: Blob | string; contentType: string };
  signal?: AbortSignal;
}

interface Answer {
  data: unknown;
  headers: Headers;
}

function buildUrl(path: string, query?: Query): string {
  const url = `${baseUrl}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function readDetail(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy error page, an empty body): fall back to the status text below.
  }
  // Read by hand rather than with the zod schema: this module is in the first chunk every page loads.
  const fields = (typeof body === "object" && body !== null ? body : {}) as Partial<
    Record<keyof ApiErrorBody, unknown>
  >;
  const detail =
    (typeof fields.detail === "string" && fields.detail) ||
    response.statusText ||
    `Request failed with status ${response.status}`;
  return new ApiError(
    response.status,
    detail,
    typeof fields.code === "string" ? fields.code : undefined,
    fieldErrorsOf(fields.errors),
  );
}

async function request(method: Method, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: Blob | string | undefined;
  if (options.raw) {
    headers["Content-Type"] = options.raw.contentType;
    body = options.raw.body;
  } else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: "same-origin",
    signal: options.signal,
  });
  if (!response.ok) throw await readDetail(response);
  if (response.status === 204) return { data: undefined, headers: response.headers };
  const text = await response.text();
  return { data: text ? (JSON.parse(text) as unknown) : undefined, headers: response.headers };
}

function parse<T>(path: string, schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) throw new UnexpectedResponseError(path, result.error);
  return result.data;
}

/** JSON client for /api. Responses are checked against the shared contract schemas. */
export const api = {
  async get<T>(path: string, schema: z.ZodType<T>, options?: Omit<RequestOptions, "body" | "raw">): Promise<T> {
    return parse(path, schema, (await request("GET", path, options)).data);
  },
  /** A GET whose response headers matter too (lists send their total in X-Total-Count). */
  async getWithHeaders<T>(
    path: string,
    schema: z.ZodType<T>,
    options?: Omit<RequestOptions, "body" | "raw">,
  ): Promise<{ data: T; headers: Headers }> {
    const { data, headers } = await request("GET", path, options);
    return { data: parse(path, schema, data), headers };
  },
  async post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return parse(path, schema, (await request("POST", path, { body })).data);
  },
  /** POST of a file or text as it is, e.g. an image upload or a CSV import. */
  async postRaw<T>(
    path: string,
    raw: { body: Blob | string; contentType: string },
    schema: z.ZodType<T>,
    query?: Query,
  ): Promise<T> {
    return parse(path, schema, (await request("POST", path, { raw, query })).data);
  },
  async put<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return parse(path, schema, (await request("PUT", path, { body })).data);
  },
  /** For calls whose answer the console does not use. */
  async send(method: Exclude<Method, "GET">, path: string, body?: unknown): Promise<void> {
    await request(method, path, { body });
  },
};

/** The address of an API path for links and images (downloads, uploaded photos), with the configured base. */
export function apiUrl(path: string, query?: Query): string {
  return buildUrl(path, query);
}

/** The text to show a person for a failed call: the server's detail, or a fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail;
  return fallback;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}
