import { useEffect } from "react";
import { type DefaultValues, type FieldValues, type Path, type UseFormReset, useForm } from "react-hook-form";
import { toast } from "sonner";
import { type FieldOf, useFormTabs, useServerErrors } from "../../lib/form-errors.ts";

/*
 * The console's create and edit dialogs (camera, camera system, store,
 * product) work alike: Save clears the last message and sends; the server's
 * answer either closes the dialog with a toast, or keeps it open with each
 * problem beside its field (its tab shown, the first one focused) and the rest
 * once above the buttons (lib/form-errors.ts). This hook is that flow once;
 * a dialog brings its fields, texts and how it sends.
 */

/** What a save calls back with once the server answers. */
export interface SaveCallbacks<Saved> {
  onSuccess: (saved: Saved) => void;
  onError: (error: unknown) => void;
}

export interface FormDialogOptions<T extends FieldValues, Saved> {
  /** The values the form opens with. */
  defaultValues: DefaultValues<T>;
  /** The form field that shows each of the server's field paths. */
  fieldOf: FieldOf<T>;
  /** A tabbed form's tabs and the fields on each, in the order shown. */
  tabs?: Record<string, readonly Path<T>[]>;
  /** An untabbed form's order of fields, for which takes focus first. */
  first?: (fields: readonly Path<T>[]) => Path<T> | undefined;
  /** Sends the valid values (a mutation's mutate), calling back when the server answers. */
  save: (values: T, callbacks: SaveCallbacks<Saved>) => void;
  /** The toast once saved. */
  savedText: (saved: Saved) => string;
  /** Shown above the buttons when the failure holds no words of its own (the network). */
  failure: string;
  /** After the toast, before the dialog closes. */
  onSaved?: (saved: Saved) => void;
  /** Closes the dialog. */
  onDone: () => void;
}

const NO_TABS: Record<string, never[]> = {};

/**
 * A console form dialog's form: react-hook-form's `form`, its `tabs` (when
 * tabbed), the `server` errors, and `formProps` to spread on DialogForm (the
 * submit handler and the message; the dialog adds its button's words and busy state).
 */
export function useFormDialog<T extends FieldValues, Saved>(options: FormDialogOptions<T, Saved>) {
  const form = useForm<T>({ defaultValues: options.defaultValues });
  const tabs = useFormTabs(options.tabs ?? NO_TABS, form.formState.errors);
  const server = useServerErrors({
    setError: form.setError,
    setFocus: form.setFocus,
    fieldOf: options.fieldOf,
    first: options.tabs ? tabs.first : options.first,
    reveal: options.tabs ? tabs.reveal : undefined,
  });
  const onValid = saveValues<T, Saved>({
    clear: server.clear,
    save: options.save,
    notify: (text) => toast.success(text),
    savedText: options.savedText,
    onSaved: options.onSaved,
    onDone: options.onDone,
    // The dialog stays open: each problem beside its field, anything else once above the buttons.
    onError: (error) => server.show(error, options.failure),
  });
  const onSubmit = form.handleSubmit(onValid, server.onInvalid);
  return { form, tabs, server, formProps: { onSubmit, message: server.message } };
}

/** The steps of Save, each given by the dialog or the hook. */
export interface SaveSteps<T, Saved> {
  /** Forgets the last answer's message. */
  clear: () => void;
  save: (values: T, callbacks: SaveCallbacks<Saved>) => void;
  /** Shows a success toast. */
  notify: (text: string) => void;
  savedText: (saved: Saved) => string;
  onSaved?: (saved: Saved) => void;
  onDone: () => void;
  onError: (error: unknown) => void;
}

/** Save's handler for valid values: clear, send, then toast and close, or show the failure and stay. */
export function saveValues<T, Saved>(steps: SaveSteps<T, Saved>): (values: T) => void {
  return (values) => {
    steps.clear();
    steps.save(values, {
      onSuccess: (saved) => {
        steps.notify(steps.savedText(saved));
        steps.onSaved?.(saved);
        steps.onDone();
      },
      onError: steps.onError,
    });
  };
}

/**
 * Defaults that answer after the form opened (settings, a store's overrides)
 * fill the fields the person has not touched yet. Runs when `when` changes;
 * `values` gives the new defaults, or undefined when there are none to take
 * (an edit, or the settings not there yet).
 */
export function useLateDefaults<T extends FieldValues>(
  reset: UseFormReset<T>,
  when: unknown,
  values: () => T | undefined,
  options: { keepErrors?: boolean } = {},
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the defaults arrive or change, not on each render.
  useEffect(() => {
    refillUntouched(reset, values(), options.keepErrors ?? false);
  }, [when]);
}

/** Resets the form to new defaults, keeping what the person typed (and, if asked, the problems shown). */
export function refillUntouched<T extends FieldValues>(
  reset: UseFormReset<T>,
  values: T | undefined,
  keepErrors: boolean,
) {
  if (values === undefined) return;
  reset(values, keepErrors ? { keepDirtyValues: true, keepErrors: true } : { keepDirtyValues: true });
}
