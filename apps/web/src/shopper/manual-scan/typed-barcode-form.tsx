import { Keyboard } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import type { ShoppingCart } from "../cart/use-cart.ts";
import { buttonClass } from "../components/button.ts";
import { sv } from "../sv.ts";
import { checkTypedBarcode, type TypedBarcodeError } from "./typed-barcode.ts";

/**
 * For a camera that will not start or a code that will not read: the digits
 * under the barcode, checked here (digits, length, check digit), then sent
 * through the same scan call as a camera read; its answer shows in the scan's
 * status line like any other.
 */
export function TypedBarcodeForm({ cart }: { cart: ShoppingCart }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<TypedBarcodeError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkTypedBarcode(draft);
    if (!checked.ok) {
      setError(checked.error);
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    const sent = draft;
    try {
      await cart.scan(checked.code);
      // A code typed since (the answer showed before the scan settled) is the shopper's next one: keep it.
      setDraft((now) => (now === sent ? "" : now));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void submit(event)}
      noValidate
      className="flex flex-col gap-3 border-t pt-4"
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-bold">
        <Keyboard aria-hidden="true" className="size-6 text-primary" />
        {sv.manual.typeTitle}
      </h2>
      <label htmlFor={id} className="font-medium">
        {sv.manual.typeLabel}
      </label>
      <input
        ref={input}
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        enterKeyHint="send"
        spellCheck={false}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          if (error) setError(null);
        }}
        aria-describedby={`${id}-hint ${id}-error`}
        aria-invalid={error ? true : undefined}
        maxLength={20}
        className="min-h-12 rounded-xl border bg-background px-4 text-base tabular-nums tracking-wider"
      />
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {sv.manual.typeHint}
      </p>
      <p id={`${id}-error`} role="alert" className="font-medium text-destructive empty:hidden">
        {error && sv.manual.typeErrors[error]}
      </p>
      <button type="submit" disabled={busy} className={buttonClass("secondary")}>
        {sv.manual.typeSubmit}
      </button>
    </form>
  );
}
