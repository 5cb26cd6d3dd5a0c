import type { FormEventHandler, ReactNode } from "react";
import { Button } from "../../ui/button.tsx";
import { DialogBody, DialogClose, DialogFooter, FormMessage } from "../../ui/dialog.tsx";

interface DialogFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** What no field holds, shown once above the buttons. */
  message: string | null;
  /** The submit button's words ("Save Changes", "Create Store"). */
  submitLabel: string;
  /** The save is under way: the button is disabled and says it is busy. */
  busy: boolean;
  /** Another reason the button is disabled (a required field still empty, an upload running). */
  disabled?: boolean;
  /** The fields, in the dialog's scrolling body. */
  children: ReactNode;
}

/** A create or edit dialog's form (useFormDialog's formProps): its fields, the message no field holds, Cancel and submit. */
export function DialogForm({ onSubmit, message, submitLabel, busy, disabled = false, children }: DialogFormProps) {
  return (
    <form noValidate onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>{children}</DialogBody>
      <FormMessage message={message} />
      <DialogFooter className={message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={disabled || busy} aria-busy={busy}>
          {submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
