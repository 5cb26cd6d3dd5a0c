import type { FastifyInstance } from "fastify";

/** A JSON schema as @fastify/swagger writes it into the OpenAPI document (only what the suites read). */
export type JsonSchema = {
  type?: string | string[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

export type Parameter = {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
};

export type Operation = {
  method: string;
  /** In Fastify's syntax, without a trailing slash: /api/v1/stores/:id */
  path: string;
  /** "GET /api/v1/stores/:id", the key of the suites' tables. */
  key: string;
  /** Listed in the OpenAPI document (false: a hidden route, e.g. /metrics or a static file). */
  documented: boolean;
  parameters: Parameter[];
  /** The request body's media types and schemas, as documented. */
  body: Record<string, JsonSchema>;
  responses: string[];
};

const normalise = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

/**
 * Every method and path of Fastify's route table, parsed from printRoutes
 * (HEAD routes mirror GET and are left out). The printout drops the static
 * part before a wildcard ("/api/docs/static/*" shows as "*" below
 * "/api/docs"), so each path is confirmed with hasRoute and a wildcard is
 * completed from its siblings; a path that cannot be confirmed throws.
 */
export function routeTable(app: FastifyInstance): { method: string; path: string }[] {
  const parsed: { method: string; path: string; parent: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? "").length / 4;
    stack.length = depth;
    const parent = stack.join("");
    const segment = m[2] ?? "";
    stack.push(segment);
    for (const method of (m[3] ?? "").split(",").map((s) => s.trim())) {
      if (method && method !== "HEAD") parsed.push({ method, path: parent + segment, parent });
    }
  }
  const exists = (method: string, url: string) => app.hasRoute({ method: method as "GET", url });
  return parsed.map(({ method, path, parent }) => {
    const candidates = [path];
    if (path.endsWith("*")) {
      candidates.push(`${parent}/*`);
      for (const other of parsed) {
        if (!other.path.startsWith(parent)) continue;
        const rest = other.path.slice(parent.length);
        for (let i = rest.indexOf("/", 1); i > 0; i = rest.indexOf("/", i + 1)) {
          candidates.push(`${parent}${rest.slice(0, i + 1)}*`);
        }
      }
    }
    const found = candidates.find((c) => exists(method, c));
    if (!found) throw new Error(`printRoutes listed ${method} ${path}, which hasRoute does not know`);
    return { method, path: normalise(found) };
  });
}

/** The OpenAPI document's operations and every hidden route of the route table, each once. */
export async function listOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  type OpenApiOperation = {
    parameters?: Parameter[];
    requestBody?: { content?: Record<string, { schema: JsonSchema }> };
    responses?: Record<string, unknown>;
  };
  const doc = res.json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const ops = new Map<string, Operation>();
  for (const [openPath, methods] of Object.entries(doc.paths)) {
    const path = normalise(openPath.replace(/\{([^}]+)\}/g, ":$1"));
    for (const [lower, op] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      if (method === "HEAD") continue;
      const body = Object.fromEntries(Object.entries(op.requestBody?.content ?? {}).map(([t, c]) => [t, c.schema]));
      ops.set(`${method} ${path}`, {
        method,
        path,
        key: `${method} ${path}`,
        documented: true,
        parameters: op.parameters ?? [],
        body,
        responses: Object.keys(op.responses ?? {}),
      });
    }
  }
  for (const { method, path } of routeTable(app)) {
    const key = `${method} ${path}`;
    if (ops.has(key)) continue;
    const parameters = [...path.matchAll(/:(\w+)/g)].map(
      (p): Parameter => ({ in: "path", name: p[1]!, required: true, schema: { type: "string" } }),
    );
    ops.set(key, { method, path, key, documented: false, parameters, body: {}, responses: [] });
  }
  return [...ops.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** The URL with its path parameters filled in as given, already URL-encoded (a wildcard is the parameter "*"). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path
    .replace(/:(\w+)/g, (_, name: string) => params[name] ?? `missing-${name}`)
    .replace(/\*$/, params["*"] ?? "");
}
