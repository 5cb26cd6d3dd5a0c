import type { FastifyRequest } from "fastify";
import { AppError } from "./errors.ts";

/**
 * Control characters have no place in anything a person types, and NUL in
 * particular cannot be stored in PostgreSQL text. They are refused at the
 * edge, before validation, with a 400 that names the field. Tab, line feed
 * and carriage return are allowed in bodies (descriptions, CSV files), never
 * in paths or queries.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const IN_BODY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const IN_URL = /[\u0000-\u001F\u007F]/;

function describe(ch: string): string {
  return `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

type Hit = { path: string[]; ch: string; inName?: boolean };

/** The first path in `value` whose string (or field name) holds a character `pattern` matches. */
function findControl(value: unknown, pattern: RegExp, path: string[], depth = 0): Hit | null {
  if (typeof value === "string") {
    const m = pattern.exec(value);
    return m ? { path, ch: m[0] } : null;
  }
  if (depth > 32 || value === null || typeof value !== "object" || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findControl(value[i], pattern, [...path, String(i)], depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    // The name itself is not echoed back: it holds the character being refused.
    const keyHit = pattern.exec(key);
    if (keyHit) return { path, ch: keyHit[0], inName: true };
    const hit = findControl(inner, pattern, [...path, key], depth + 1);
    if (hit) return hit;
  }
  return null;
}

function refuse(where: string, hit: Hit, extra = ""): AppError {
  // A wildcard route's parameter is the rest of the address.
  const field = hit.path.map((p) => (p === "*" ? "path" : p)).join(".") || where;
  const what = hit.inName ? "A field name here contains" : "Contains";
  const message = `${what} a control character (${describe(hit.ch)})${extra}; remove it and try again`;
  return new AppError(400, "control_character", `${field}: ${message}`, [{ path: field, message }]);
}

/** preValidation hook for every route. */
export async function refuseControlCharacters(request: FastifyRequest): Promise<void> {
  const params = findControl(request.params, IN_URL, []);
  if (params) throw refuse("path", params);
  const query = findControl(request.query, IN_URL, []);
  if (query) throw refuse("query", query);
  const body = request.body;
  if (typeof body === "string") {
    const m = IN_BODY.exec(body);
    if (m) {
      const line = body.slice(0, m.index).split("\n").length;
      throw refuse("body", { path: [], ch: m[0] }, ` on line ${line}`);
    }
    return;
  }
  const hit = findControl(body, IN_BODY, []);
  if (hit) throw refuse("body", hit);
}
