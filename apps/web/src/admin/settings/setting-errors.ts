import { ApiError } from "../../lib/api.ts";

/** The server's problems with a value: by path inside the value ("" is the whole value), and what no control holds. */
export interface ValueProblems {
  byPath: Readonly<Record<string, string>>;
  message: string | null;
}

export const NO_PROBLEMS: ValueProblems = { byPath: {}, message: null };

/**
 * Places each of the server's problems beside the control showing that part
 * of the value. `prefix` is where the value sits in the request ("value" for a
 * global setting, "settings.ai.confidence_threshold" for an override);
 * `canPlace` says which paths inside it have a control. In Advanced Mode the
 * one control is the JSON text: every problem goes under it, its path named.
 */
export function placeProblems(
  error: unknown,
  options: { prefix: string; canPlace: (path: string) => boolean; fallback: string },
): ValueProblems {
  if (!(error instanceof ApiError)) return { byPath: {}, message: options.fallback };
  const byPath: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const problem of error.errors) {
    const inside = problem.path === options.prefix || problem.path.startsWith(`${options.prefix}.`);
    const path = inside ? problem.path.slice(options.prefix.length + 1) : problem.path;
    const named = path ? `${path}: ${problem.message}` : problem.message;
    if (inside && options.canPlace(path)) {
      // One message per control: the first reason is the one to fix first.
      byPath[path] ??= problem.message;
    } else if (inside && options.canPlace("")) {
      // A part without its own control (a field the value should not have): said under the whole value.
      byPath[""] = byPath[""] ? `${byPath[""]} ${named}` : named;
    } else {
      unplaced.push(named);
    }
  }
  if (unplaced.length > 0) return { byPath, message: unplaced.join(" ") };
  return { byPath, message: Object.keys(byPath).length > 0 ? null : error.detail };
}
