import type { IncomingMessage } from "node:http";

/**
 * Stripe's form bodies and query strings: `a=1`, nested `a[b][c]=2`, lists as
 * `a[]=x` or indexed `a[0]=x` (the `stripe` package sends the indexed form).
 * Values stay strings; each endpoint reads them with the helpers below.
 */
export type FormValue = string | FormValue[] | FormObject;
export type FormObject = { [key: string]: FormValue };

export class FormError extends Error {}

/** A bracketed name: `a[b][]` is ["a", "b", ""]. */
function segments(name: string): string[] {
  const open = name.indexOf("[");
  if (open === -1) return [name];
  const parts = [name.slice(0, open)];
  const rest = name.slice(open);
  const re = /\[([^[\]]*)\]/y;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < rest.length) {
    re.lastIndex = at;
    m = re.exec(rest);
    if (!m) throw new FormError(`Invalid parameter name: ${name}`);
    parts.push(m[1]!);
    at = re.lastIndex;
  }
  return parts;
}

export function parseForm(text: string): FormObject {
  const root: FormObject = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const path = segments(name);
    if (path[0] === "") throw new FormError(`Invalid parameter name: ${name}`);
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const last = i === path.length - 1;
      if (Array.isArray(node)) {
        if (key !== "") throw new FormError(`Invalid parameter name: ${name}`);
        if (last) node.push(value);
        else {
          const next = path[i + 1] === "" ? [] : (Object.create(null) as FormObject);
          node.push(next);
          node = next;
        }
        continue;
      }
      if (key === "") throw new FormError(`Invalid parameter name: ${name}`);
      if (last) {
        if (node[key] !== undefined && typeof node[key] !== "string")
          throw new FormError(`Invalid parameter: ${name} is given both as a value and as a hash`);
        node[key] = value;
        continue;
      }
      const wantList = path[i + 1] === "";
      const existing: FormValue | undefined = node[key];
      if (existing === undefined) {
        const next: FormObject | FormValue[] = wantList ? [] : Object.create(null);
        node[key] = next;
        node = next;
      } else if (typeof existing === "string" || Array.isArray(existing) !== wantList) {
        throw new FormError(`Invalid parameter: ${name} is given in two shapes`);
      } else {
        node = existing;
      }
    }
  }
  return root;
}

/** A list parameter given as `a[]=…` or as `a[0]=…&a[1]=…`. */
export function formList(value: FormValue | undefined): FormValue[] | null {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return value === "" ? [] : null;
  const keys = Object.keys(value);
  if (!keys.every((k) => /^\d+$/.test(k))) return null;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]!);
}

/** The same parameters in one order, to tell whether two requests asked the same thing. */
export function canonical(value: FormValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k]!)}`).join(",")}}`;
}

/** A request's body as text, refused past 1 MiB. */
export async function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new FormError("Request body too large");
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
