import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { UseFormReset } from "react-hook-form";
import { toast } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api.ts";
import { fieldMapper } from "../../lib/form-errors.ts";
import {
  type FormDialogOptions,
  refillUntouched,
  type SaveCallbacks,
  type SaveSteps,
  saveValues,
  useFormDialog,
} from "./use-form-dialog.ts";

interface Values {
  name: string;
  city: string;
  email: string;
}

const DEFAULTS: Values = { name: "Glide Town", city: "Lund", email: "shop@example.se" };
const fieldOf = fieldMapper<Values>(["name", "city", "email"], { "contact.email": "email" });

/** Save's steps, each recording its call in `calls`. */
function steps(save: SaveSteps<Values, { id: string }>["save"], withSaved = true) {
  const calls: string[] = [];
  const handler = saveValues<Values, { id: string }>({
    clear: () => calls.push("clear"),
    save: (values, callbacks) => {
      calls.push(`save ${values.name}`);
      save(values, callbacks);
    },
    notify: (text) => calls.push(`toast ${text}`),
    savedText: (saved) => `${saved.id} saved`,
    onSaved: withSaved ? (saved) => calls.push(`saved ${saved.id}`) : undefined,
    onDone: () => calls.push("close"),
    onError: (error) => calls.push(`error ${(error as Error).message}`),
  });
  return { calls, handler };
}

describe("Save in a form dialog", () => {
  it("clears the last message, sends, then toasts, hands the saved record over and closes", () => {
    const { calls, handler } = steps((_, callbacks) => callbacks.onSuccess({ id: "s1" }));
    handler(DEFAULTS);
    expect(calls).toEqual(["clear", "save Glide Town", "toast s1 saved", "saved s1", "close"]);
  });

  it("toasts and closes when the dialog wants nothing of the saved record", () => {
    const { calls, handler } = steps((_, callbacks) => callbacks.onSuccess({ id: "s2" }), false);
    handler(DEFAULTS);
    expect(calls).toEqual(["clear", "save Glide Town", "toast s2 saved", "close"]);
  });

  it("keeps the dialog open on a failure: no toast, the failure goes to the error handler", () => {
    const { calls, handler } = steps((_, callbacks) => callbacks.onError(new Error("offline")));
    handler(DEFAULTS);
    expect(calls).toEqual(["clear", "save Glide Town", "error offline"]);
  });

  it("does nothing more until the server answers", () => {
    const { calls, handler } = steps(() => undefined);
    handler(DEFAULTS);
    expect(calls).toEqual(["clear", "save Glide Town"]);
  });
});

describe("defaults that arrive after the form opened", () => {
  it("reset the form keeping what was typed, and the problems shown only when asked", () => {
    const reset = vi.fn() as unknown as UseFormReset<Values> & ReturnType<typeof vi.fn>;
    refillUntouched(reset, DEFAULTS, false);
    expect(reset).toHaveBeenLastCalledWith(DEFAULTS, { keepDirtyValues: true });
    refillUntouched(reset, DEFAULTS, true);
    expect(reset).toHaveBeenLastCalledWith(DEFAULTS, { keepDirtyValues: true, keepErrors: true });
  });

  it("leave the form alone when there are none to take (an edit, settings not there yet)", () => {
    const reset = vi.fn() as unknown as UseFormReset<Values> & ReturnType<typeof vi.fn>;
    refillUntouched(reset, undefined, true);
    expect(reset).not.toHaveBeenCalled();
  });
});

type Dialog = ReturnType<typeof useFormDialog<Values, { id: string }>>;

/** Renders a component using the hook once (no DOM: the server renderer) and gives back what the hook returned. */
function renderDialog(options: Partial<FormDialogOptions<Values, { id: string }>>): Dialog {
  let dialog: Dialog | undefined;
  function Probe() {
    dialog = useFormDialog<Values, { id: string }>({
      defaultValues: DEFAULTS,
      fieldOf,
      save: () => undefined,
      savedText: (saved) => `${saved.id} saved`,
      failure: "Failed to save",
      onDone: () => undefined,
      ...options,
    });
    return null;
  }
  renderToString(createElement(Probe));
  if (!dialog) throw new Error("the probe did not render");
  return dialog;
}

/** react-hook-form focuses a field on the next turn of the event loop. */
const focusTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Stands in for each input's element, so the test sees which one takes focus. */
function fakeInputs(dialog: Dialog) {
  const focused: string[] = [];
  for (const name of ["name", "city", "email"] as const) {
    dialog.form.register(name).ref({ name, value: "", focus: () => focused.push(name) });
  }
  return focused;
}

const refusal = new ApiError(422, "Validation failed", "validation_error", [
  { path: "contact.email", message: "Not an email address" },
  { path: "city", message: "Required" },
]);

describe("useFormDialog", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sends the form's values on submit, then toasts and closes", async () => {
    const success = vi.spyOn(toast, "success");
    const onSaved = vi.fn();
    const onDone = vi.fn();
    const save = vi.fn((_: Values, callbacks: SaveCallbacks<{ id: string }>) => callbacks.onSuccess({ id: "s7" }));
    const dialog = renderDialog({ save, onSaved, onDone });
    await dialog.formProps.onSubmit();
    expect(save).toHaveBeenCalledWith(DEFAULTS, expect.anything());
    expect(success).toHaveBeenCalledWith("s7 saved");
    expect(onSaved).toHaveBeenCalledWith({ id: "s7" });
    expect(onDone).toHaveBeenCalledOnce();
    expect(dialog.formProps.message).toBeNull();
  });

  it("puts the server's field problems on their fields and focuses the first by the tabs' order", async () => {
    const success = vi.spyOn(toast, "success");
    const onDone = vi.fn();
    const dialog = renderDialog({
      tabs: { basic: ["name"], location: ["city"], contact: ["email"] },
      save: (_, callbacks) => callbacks.onError(refusal),
      onDone,
    });
    const focused = fakeInputs(dialog);
    await dialog.formProps.onSubmit();
    await focusTurn();
    expect(dialog.form.getFieldState("email").error?.message).toBe("Not an email address");
    expect(dialog.form.getFieldState("city").error?.message).toBe("Required");
    expect(focused).toEqual(["city"]);
    expect(success).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });

  it("orders an untabbed form's fields by its own `first`, not by the server's order", async () => {
    const dialog = renderDialog({
      first: (fields) => (["name", "city", "email"] as const).find((field) => fields.includes(field)),
      save: (_, callbacks) => callbacks.onError(refusal),
    });
    const focused = fakeInputs(dialog);
    await dialog.formProps.onSubmit();
    await focusTurn();
    expect(focused).toEqual(["city"]);
  });
});
