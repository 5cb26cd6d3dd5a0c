import { expect } from "vitest";
import { SETTING_DEFINITIONS, type SettingCategory } from "./settings.ts";

/*
 * What the contracts' own tests ask of a schema. Not exported from the
 * package: only *.test.ts files import it.
 */

/** The part of a zod schema the tests use. */
export type Schema = {
  safeParse(input: unknown): {
    success: boolean;
    data?: unknown;
    error?: { issues: { code: string; path: PropertyKey[]; message: string }[] };
  };
};

/** A whole value comes back whole: no field dropped, none changed. */
export function keeps(schema: Schema, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(value);
}

/** The first message about `path` ("" for the value itself), as a form shows it beside the field. */
export function messageAt(schema: Schema, input: unknown, path = ""): string | undefined {
  return schema.safeParse(input).error?.issues.find((issue) => issue.path.join(".") === path)?.message;
}

/** The first message, wherever it is. */
export const message = (schema: Schema, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

/** The schema turns the value away. */
export const refused = (schema: Schema, value: unknown) => expect(schema.safeParse(value).success).toBe(false);

/** The built-in value of a setting key: what a fresh installation starts with. */
export const builtIn = <C extends SettingCategory>(category: C, key: keyof (typeof SETTING_DEFINITIONS)[C]) =>
  (SETTING_DEFINITIONS[category][key] as { value: Record<string, unknown> }).value;
