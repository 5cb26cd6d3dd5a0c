import { invalidParam, missingParam } from "./errors.ts";
import { type FormObject, type FormValue, formList } from "./form.ts";

/**
 * Reads one endpoint's parameters the way Stripe checks them: an unknown
 * parameter, a wrong type or a missing required one is a 400 before anything
 * happens.
 */
export class Params {
  private readonly values: FormObject;
  constructor(values: FormObject, allowed: readonly string[]) {
    this.values = values;
    for (const name of Object.keys(values)) {
      if (!allowed.includes(name) && name !== "expand")
        throw invalidParam(`Received unknown parameter: ${name}`, name, "parameter_unknown");
    }
  }

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  str(name: string, required: true): string;
  str(name: string, required?: false): string | undefined;
  str(name: string, required = false): string | undefined {
    const v = this.values[name];
    if (v === undefined) {
      if (required) throw missingParam(name);
      return undefined;
    }
    if (typeof v !== "string") throw invalidParam(`Invalid string: ${name} must be a string`, name);
    return v;
  }

  /** An empty string clears a field, as in Stripe's API. */
  nullableStr(name: string): string | null | undefined {
    const v = this.str(name);
    return v === undefined ? undefined : v === "" ? null : v;
  }

  int(name: string, range: { min: number; max: number }, required = false): number | undefined {
    const v = this.str(name);
    if (v === undefined) {
      if (required) throw missingParam(name);
      return undefined;
    }
    if (!/^-?\d+$/.test(v)) throw invalidParam(`Invalid integer: ${v}`, name, "parameter_invalid_integer");
    const n = Number(v);
    if (n < range.min) throw invalidParam(`This value must be greater than or equal to ${range.min}.`, name);
    if (n > range.max) throw invalidParam(`This value must be less than or equal to ${range.max}.`, name);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (v !== "true" && v !== "false") throw invalidParam(`Invalid boolean: ${v}`, name);
    return v === "true";
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v))
      throw invalidParam(`Invalid ${name}: must be one of ${allowed.join(", ")}`, name);
    return v as T;
  }

  strings(name: string): string[] {
    return stringList(this.values[name], name);
  }

  hash(name: string): FormObject | undefined {
    const v = this.values[name];
    if (v === undefined || v === "") return undefined;
    if (typeof v === "string" || Array.isArray(v)) throw invalidParam(`Invalid object: ${name} must be a hash`, name);
    return v;
  }

  /** Stripe's limits: 50 keys of up to 40 characters, values up to 500; `metadata=` clears. */
  metadata(): Record<string, string> | undefined {
    const v = this.values.metadata;
    if (v === undefined) return undefined;
    if (v === "") return {};
    if (typeof v === "string" || Array.isArray(v)) throw invalidParam("Invalid object", "metadata");
    const out: Record<string, string> = {};
    const keys = Object.keys(v);
    if (keys.length > 50) throw invalidParam("You can specify up to 50 keys in metadata.", "metadata");
    for (const key of keys) {
      const value = v[key];
      if (typeof value !== "string") throw invalidParam("Metadata values must be strings.", `metadata[${key}]`);
      if (key.length > 40) throw invalidParam("Metadata keys can be at most 40 characters.", `metadata[${key}]`);
      if (value.length > 500) throw invalidParam("Metadata values can be at most 500 characters.", `metadata[${key}]`);
      out[key] = value;
    }
    return out;
  }

  /** `expand[]` paths, checked against what the object can expand. */
  expand(allowed: readonly string[]): string[] {
    const paths = stringList(this.values.expand, "expand");
    for (const p of paths) {
      if (!allowed.includes(p)) throw invalidParam(`This property cannot be expanded (${p}).`, "expand");
    }
    return paths;
  }
}

function stringList(value: FormValue | undefined, name: string): string[] {
  const list = formList(value);
  if (list === null || !list.every((x): x is string => typeof x === "string"))
    throw invalidParam(`Invalid array: ${name} must be a list of strings`, name);
  return list;
}
