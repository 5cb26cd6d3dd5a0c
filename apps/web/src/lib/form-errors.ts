import { useState } from "react";
import { flushSync } from "react-dom";
import type { FieldErrors, FieldValues, Path, UseFormSetError, UseFormSetFocus } from "react-hook-form";
import { ApiError } from "./api.ts";

/*
 * How a console form shows what went wrong (every form dialog gets it through
 * `useFormDialog`, admin/lib/use-form-dialog.ts):
 * - each problem the server names a field for is shown beside that field
 *   (react-hook-form's setError), and the first such field gets focus;
 * - a tabbed form marks every tab holding a problem and shows the first one;
 * - anything no field holds (a conflict, the network, the database away) is
 *   shown once, in the dialog, above its buttons. No toast repeats it.
 */

/** Maps the server's path ("settings.vat_rate", "barcodes.0") to the form field showing it, if any. */
export type FieldOf<T extends FieldValues> = (path: string) => Path<T> | undefined;

export interface PlacedErrors<T extends FieldValues> {
  /** Fields that now show the server's message. */
  fields: Path<T>[];
  /** To show once for the whole form: problems no field holds; null when every one sits beside its field. */
  message: string | null;
}

/** Puts each of the server's field problems on its field; returns where they went and what is left to say. */
export function placeServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldOf: FieldOf<T>,
  fallback: string,
): PlacedErrors<T> {
  if (!(error instanceof ApiError)) return { fields: [], message: fallback };
  const fields: Path<T>[] = [];
  const unplaced: string[] = [];
  for (const problem of error.errors) {
    const field = fieldOf(problem.path);
    // One message per field: the first reason is the one to fix first.
    if (field && !fields.includes(field)) {
      setError(field, { type: "server", message: problem.message });
      fields.push(field);
    } else if (!field) {
      unplaced.push(problem.path ? `${problem.path}: ${problem.message}` : problem.message);
    }
  }
  if (unplaced.length > 0) return { fields, message: unplaced.join(" ") };
  return { fields, message: fields.length > 0 ? null : error.detail };
}

/** The same field names in the form and the API, except these (API path → form field). */
export function fieldMapper<T extends FieldValues>(
  names: readonly Path<T>[],
  renamed: Record<string, Path<T>> = {},
): FieldOf<T> {
  return (path) => {
    if (renamed[path]) return renamed[path];
    // "barcodes.0" is reported on "barcodes" when that is what the form renamed.
    const head = path.split(".")[0] ?? "";
    if (renamed[head]) return renamed[head];
    return names.find((name) => name === path);
  };
}

/**
 * A tabbed form's tabs and the fields on each, in the order they are shown.
 * `invalid` holds every tab with a problem; `reveal` shows the tab of a field
 * at once, so that the field can take focus.
 */
export function useFormTabs<T extends FieldValues, K extends string>(
  layout: Record<K, readonly Path<T>[]>,
  errors: FieldErrors<T>,
) {
  const keys = Object.keys(layout) as K[];
  const [tab, setTab] = useState<string>(keys[0] ?? "");
  const tabOf = (field: Path<T>) => keys.find((key) => layout[key].includes(field));
  const invalid = new Set(keys.filter((key) => layout[key].some((field) => errors[field] !== undefined)));
  const order = keys.flatMap((key) => layout[key]);
  return {
    tab,
    setTab,
    invalid,
    /** The field with a problem that comes first on screen: first tab, then top to bottom. */
    first: (fields: readonly Path<T>[]) => order.find((field) => fields.includes(field)),
    reveal: (field: Path<T>) => {
      const owner = tabOf(field);
      if (owner && owner !== tab) flushSync(() => setTab(owner));
    },
  };
}

/** The form's one message for what no field holds, and the server error handler that fills it. */
export function useServerErrors<T extends FieldValues>(options: {
  setError: UseFormSetError<T>;
  setFocus: UseFormSetFocus<T>;
  fieldOf: FieldOf<T>;
  /** Orders the fields as the form shows them; the first gets focus. */
  first?: (fields: readonly Path<T>[]) => Path<T> | undefined;
  /** Makes a field visible before it takes focus (its tab). */
  reveal?: (field: Path<T>) => void;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const focusFirst = (fields: readonly Path<T>[]) => {
    const field = options.first ? options.first(fields) : fields[0];
    if (!field) return;
    options.reveal?.(field);
    options.setFocus(field);
  };
  return {
    message,
    clear: () => setMessage(null),
    /** For a mutation's onError: each problem beside its field, the rest once in `message`. */
    show: (error: unknown, fallback: string) => {
      const placed = placeServerErrors(error, options.setError, options.fieldOf, fallback);
      setMessage(placed.message);
      focusFirst(placed.fields);
    },
    /** For handleSubmit's second argument: the client's own rules lead to their field the same way. */
    onInvalid: (errors: FieldErrors<T>) => focusFirst(Object.keys(errors) as Path<T>[]),
  };
}
