import { randomUUID } from "node:crypto";
import type { JsonSchema } from "./route-table.ts";

/**
 * Malformed values for the bad-input suite, derived from a route's JSON
 * schemas so a new route or field is covered without a line of its own.
 */

const LONG = "x".repeat(100_000);

/** Wrong for any field: other JSON types. */
const ANY_FIELD: unknown[] = [null, true, [], {}, { nested: "\u0000" }];
/** For text fields: control characters, sizes, encodings and look-alikes. */
const FOR_TEXT: unknown[] = [
  0,
  -1e308,
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "a\u0007b",
  "\u001b[31mred",
  "\u007f",
  "line\nbreak\ttab",
  LONG,
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
  "\ud800",
  "\u202eevil",
  "%_",
  "' or 1=1 --",
  "🛒".repeat(60),
  ["\u0000"],
];
/** For numbers: out of range, not whole, not numbers. */
const FOR_NUMBERS: unknown[] = [
  -1,
  0,
  1.5,
  0.001,
  -1e308,
  1e308,
  2 ** 63,
  Number.MAX_SAFE_INTEGER + 2,
  "5",
  "1e400",
  "",
  "\u0000",
  LONG,
];
const FOR_BOOLEANS: unknown[] = ["true", 0, 1, "\u0000"];
const FOR_LISTS: unknown[] = ["x", ["\u0000"], [LONG], [null], [{}], Array.from({ length: 1000 }, (_, i) => String(i))];

/** Malformed values for one field, chosen by the types its schema allows. */
export function badValuesFor(schema: JsonSchema): unknown[] {
  const types = new Set(variants(schema).flatMap((v) => (Array.isArray(v.type) ? v.type : [v.type ?? "any"])));
  const out = [...ANY_FIELD];
  if (types.has("string") || types.has("any")) out.push(...FOR_TEXT);
  if (types.has("number") || types.has("integer")) out.push(...FOR_NUMBERS);
  if (types.has("boolean")) out.push(...FOR_BOOLEANS);
  if (types.has("array")) out.push(...FOR_LISTS);
  if (!types.has("string") && !types.has("any")) out.push("\u0000", LONG);
  return out;
}

/** Raw text for a query parameter (URL-encoded as sent). */
export const BAD_QUERY_VALUES: string[] = [
  "%00",
  "a%00b",
  "%07",
  "%0A",
  "%7F",
  "%ff",
  "%E2%80%AE",
  "%F0%9F%9B%92",
  "",
  "-1",
  "1.5",
  "abc",
  "1e400",
  "99999999999999999999999",
  "-99999999999999999999999",
  "NaN",
  "%25",
  "_",
  "%27%20or%201%3D1",
  "x".repeat(100_000),
];

/** Raw text for a path parameter (URL-encoded as sent). */
export const BAD_PATH_VALUES: string[] = [
  "%00",
  "a%01b",
  "%1B",
  "%7F",
  "%ff%fe",
  "%E2%80%AE",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "-1",
  "1e400",
  "99999999999999999999999",
  "%25",
  "_",
  "..%2F..%2Fetc",
  "%20",
  "a".repeat(200),
  "a".repeat(201),
  "%C3%A9".repeat(150),
];

/** The types a schema allows, with anyOf/oneOf flattened. */
function variants(schema: JsonSchema): JsonSchema[] {
  const inner = schema.anyOf ?? schema.oneOf;
  return inner ? inner.flatMap(variants) : [schema];
}

/** A value the schema accepts (as far as a generic generator can tell), for fields the suite does not vary. */
export function validValue(schema: JsonSchema, name = ""): unknown {
  if (schema.default !== undefined) return schema.default;
  const s = variants(schema)[0] ?? {};
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object":
      return Object.fromEntries((s.required ?? []).map((key) => [key, validValue(s.properties?.[key] ?? {}, key)]));
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items ?? {}));
    case "integer":
    case "number":
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case "boolean":
      return true;
    case "string":
      if (s.format === "uuid") return randomUUID();
      if (s.format === "email" || /email/.test(name)) return "someone@example.se";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
    default:
      return "x";
  }
}

/** Every field of an object schema, nested objects and array items included, as paths. */
export function fieldPaths(
  schema: JsonSchema,
  prefix: string[] = [],
  depth = 0,
): { path: string[]; schema: JsonSchema }[] {
  const out: { path: string[]; schema: JsonSchema }[] = [];
  for (const s of variants(schema)) {
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      const path = [...prefix, key];
      out.push({ path, schema: prop });
      if (depth < 2) {
        out.push(...fieldPaths(prop, path, depth + 1));
        const items = variants(prop).find((v) => v.items)?.items;
        if (items) out.push({ path: [...path, "0"], schema: items });
      }
    }
  }
  return out;
}

/** A copy of `value` with the field at `path` set (or removed when `to` is undefined). */
export function withField(value: unknown, path: string[], to: unknown): unknown {
  const copy: unknown = structuredClone(value ?? {});
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== "object") node[key] = /^\d+$/.test(key) ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (to === undefined) delete node[last];
  else node[last] = to;
  return copy;
}

/** Bodies that are not the JSON they claim to be, or not JSON at all. */
export const RAW_BODIES: { contentType?: string; payload: string | Buffer; label: string }[] = [
  { contentType: "application/json", payload: '{"name": ', label: "invalid JSON" },
  { contentType: "application/json", payload: '{"a":1}}', label: "trailing garbage" },
  { contentType: "application/json", payload: "", label: "empty JSON body" },
  { contentType: "application/json", payload: "null", label: "JSON null" },
  { contentType: "application/json", payload: "[]", label: "JSON array" },
  { contentType: "application/json", payload: '"text"', label: "JSON string" },
  { contentType: "application/json", payload: "42", label: "JSON number" },
  { contentType: "application/json", payload: `${"[".repeat(5000)}${"]".repeat(5000)}`, label: "deep nesting" },
  {
    contentType: "application/json",
    payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}',
    label: "prototype keys",
  },
  { contentType: "application/json", payload: Buffer.from([0xff, 0xfe, 0x7b, 0x00]), label: "not UTF-8" },
  { contentType: "application/json; charset=utf-16", payload: "{}", label: "odd charset" },
  { contentType: "text/plain", payload: "hello", label: "text/plain" },
  { contentType: "application/x-www-form-urlencoded", payload: "name=x", label: "form" },
  { contentType: "multipart/form-data; boundary=x", payload: "--x\r\n\r\n--x--", label: "multipart" },
  { contentType: "application/xml", payload: "<a/>", label: "xml" },
  { contentType: "image/png", payload: Buffer.from("not a png"), label: "fake image" },
  { contentType: "text/csv", payload: "sku,name\nA\u0000,b\n", label: "CSV with NUL" },
  { payload: "{}", label: "no content type" },
];

/** CSV files for a route whose body is text. */
export const BAD_CSV: string[] = [
  "",
  "sku,name,price\n",
  "\ufeffsku,name,price\nBOM-1,Vara,5\n",
  'sku,name,price\n"unterminated,Vara,5\n',
  "sku,name,price\nA,\u0007bell,5\n",
  "sku,name,price\nA,tab\there,5\r\nB,crlf,6\r\n",
  "sku,name,price\nHUGE,Vara,1e308\nNEG,Vara,-5\nBIG,Vara,99999999999999999999\nNAN,Vara,NaN\n",
  `sku,name,price\nLONG,${"x".repeat(100_000)},5\n`,
  "sku,sku,sku\n1,2,3\n",
  "nonsense\n\u0001\u0002\u0003\n",
  `sku,name,price\n${Array.from({ length: 500 }, (_, i) => `ROW-${i},Vara ${i},${i}`).join("\n")}\n`,
  "sku,name,price,barcodes\nBC,Vara,5,not-a-barcode;12345678901234567890\n",
  'sku,name,price\n=HYPERLINK("http://x"),+1,@SUM(1)\n',
];
