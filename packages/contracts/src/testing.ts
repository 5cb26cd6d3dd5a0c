import { expect } from "vitest";

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
