import { type SessionDetail, sessionWriteOffSchema, UNPAID_WRITE_OFF_REASON_MAX } from "@glide/contracts";
import { type FormEvent, useRef, useState } from "react";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import { useWriteOffUnpaid } from "./use-sessions.ts";

interface WriteOffDialogProps {
  sessionId: string;
  /** The goods' value in kronor, the visit's total. */
  amount: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the visit as it now is (written off). */
  onWrittenOff: (detail: SessionDetail) => void;
}

/**
 * Writes the goods of a visit left unpaid off, with the reason staff give
 * (required, at most 500 characters: the contract's own rule, checked here
 * first and by the server again). A problem with the reason is shown beside
 * it; anything else once above the buttons.
 */
export function WriteOffDialog({ sessionId, amount, open, onOpenChange, onWrittenOff }: WriteOffDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <WriteOffForm
          sessionId={sessionId}
          amount={amount}
          onClose={() => onOpenChange(false)}
          onWrittenOff={onWrittenOff}
        />
      ) : null}
    </Dialog>
  );
}

function WriteOffForm({
  sessionId,
  amount,
  onClose,
  onWrittenOff,
}: Omit<WriteOffDialogProps, "open" | "onOpenChange"> & { onClose: () => void }) {
  const writeOff = useWriteOffUnpaid(sessionId);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const value = formatKronor(amount);

  const refuse = (words: string) => {
    setError(words);
    field.current?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (writeOff.isPending) return;
    setMessage(null);
    const checked = sessionWriteOffSchema.safeParse({ reason });
    if (!checked.success) return refuse(checked.error.issues[0]?.message ?? "A reason is required");
    setError(undefined);
    writeOff.mutate(checked.data, {
      onSuccess: onWrittenOff,
      onError: (failure) => {
        const onReason = failure instanceof ApiError ? failure.errors.find((e) => e.path === "reason") : undefined;
        if (onReason) refuse(onReason.message);
        else setMessage(errorMessage(failure, "Failed to write the visit off"));
      },
    });
  };

  return (
    <DialogContent
      title="Write off this visit"
      description={`The goods (${value}) are written off and nothing is charged. The reason is kept on the visit's timeline and in the audit log.`}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        field.current?.focus();
      }}
    >
      <form noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col">
        <DialogBody>
          <Field label="Reason" error={error} hint={`Required, up to ${UNPAID_WRITE_OFF_REASON_MAX} characters.`}>
            {(id, control) => (
              <Textarea
                id={id}
                ref={field}
                {...control}
                aria-required="true"
                maxLength={UNPAID_WRITE_OFF_REASON_MAX}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            )}
          </Field>
        </DialogBody>
        <FormMessage message={message} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="destructive"
            className="aria-disabled:cursor-wait aria-disabled:opacity-50"
            aria-disabled={writeOff.isPending || undefined}
          >
            {writeOff.isPending ? "Writing off…" : `Write off ${value}`}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
