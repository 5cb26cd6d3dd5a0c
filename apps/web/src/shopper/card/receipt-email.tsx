import { Mail } from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { buttonClass } from "../components/button.ts";
import { isAbort, ShopperApiError, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";

/** Where receipts are e-mailed: an address, or none. */
export function ReceiptEmail() {
  const [email, setEmail] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    shopperApi.profile(controller.signal).then(
      (profile) => {
        setEmail(profile.email ?? "");
        setDraft(profile.email ?? "");
      },
      (error: unknown) => {
        if (!isAbort(error)) log.warn("Could not read the profile", error);
      },
    );
    return () => controller.abort();
  }, []);

  if (email === null) return null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim() || null;
    setBusy(true);
    try {
      const saved = await shopperApi.setEmail(value);
      setEmail(saved.email ?? "");
      setDraft(saved.email ?? "");
      setNote({ error: false, text: saved.email ? sv.email.saved : sv.email.removed });
    } catch (error) {
      const invalid = error instanceof ShopperApiError && error.status === 422;
      setNote({ error: true, text: invalid ? sv.email.invalid : sv.email.failed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-2xl border bg-card p-4">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-bold">
        <Mail aria-hidden="true" className="size-6 text-primary" />
        {sv.email.title}
      </h2>
      <form onSubmit={(event) => void save(event)} noValidate className="flex flex-col gap-3">
        <label htmlFor={id} className="font-medium">
          {sv.email.label}
        </label>
        <input
          id={id}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-describedby={`${id}-hint ${id}-note`}
          aria-invalid={note?.error ? true : undefined}
          maxLength={254}
          className="min-h-12 rounded-xl border bg-background px-4 text-base"
        />
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {sv.email.hint}
        </p>
        <p id={`${id}-note`} role="status" className={note?.error ? "font-medium text-destructive" : "text-sm"}>
          {note?.text}
        </p>
        <button type="submit" disabled={busy} className={buttonClass("secondary")}>
          {sv.email.save}
        </button>
      </form>
    </section>
  );
}
