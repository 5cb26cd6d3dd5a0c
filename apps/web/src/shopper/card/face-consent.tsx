import { ScanFace } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { isAbort, shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";

/**
 * The shopper's consent to the face check at the exit: asked in plain
 * Swedish, off until they turn it on, and withdrawn as easily.
 */
export function FaceConsent() {
  const [consent, setConsent] = useState<boolean | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    shopperApi.faceConsent(controller.signal).then(
      (answer) => setConsent(answer.consent),
      (error: unknown) => {
        if (!isAbort(error)) log.warn("Could not read the face consent", error);
      },
    );
    return () => controller.abort();
  }, []);

  if (consent === null) return null;

  const change = async (value: boolean) => {
    setBusy(true);
    // The box follows the tap at once; the server's answer confirms it or puts it back.
    setConsent(value);
    try {
      setConsent((await shopperApi.setFaceConsent(value)).consent);
      setNote(value ? sv.face.saved : sv.face.withdrawn);
    } catch {
      setConsent(!value);
      setNote(sv.face.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-2xl border bg-card p-4">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-bold">
        <ScanFace aria-hidden="true" className="size-6 text-primary" />
        {sv.face.title}
      </h2>
      <p className="text-muted-foreground">{sv.face.text}</p>
      <label htmlFor={id} className="flex min-h-12 items-center gap-3 font-medium">
        <input
          id={id}
          type="checkbox"
          checked={consent}
          disabled={busy}
          onChange={(event) => void change(event.target.checked)}
          className="size-6 accent-[var(--primary)]"
        />
        {sv.face.consent}
      </label>
      <p role="status" className="text-sm text-muted-foreground">
        {note}
      </p>
    </section>
  );
}
