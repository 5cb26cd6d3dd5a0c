import clsx from "clsx";
import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, type ReactNode, useRef } from "react";
import { ErrorAlert } from "./alert.tsx";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClass = "fixed inset-0 z-40 bg-overlay";

interface DialogContentProps extends Omit<ComponentProps<typeof DialogPrimitive.Content>, "title"> {
  title: ReactNode;
  description?: ReactNode;
}

/**
 * Focus goes back to what opened the dialog when it closes. Radix does that
 * only for a Dialog.Trigger; our dialogs are opened by state from buttons in
 * cards and rows, so the element focused when the dialog opened is kept here.
 */
export function useReturnFocus<E extends Event>(
  onOpenAutoFocus?: (event: E) => void,
  onCloseAutoFocus?: (event: E) => void,
) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: E) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: E) => {
      onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const target = opener.current;
      opener.current = null;
      // Gone (the row was deleted) or hidden (a closed menu): leave focus where Radix puts it.
      if (!target?.isConnected || target === document.body) return;
      event.preventDefault();
      target.focus({ preventScroll: true });
    },
  };
}

export function DialogContent({
  title,
  description,
  className,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: DialogContentProps) {
  const focus = useReturnFocus(onOpenAutoFocus, onCloseAutoFocus);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClass} />
      <DialogPrimitive.Content
        // Without a description Radix wants aria-describedby set explicitly to undefined.
        {...(description ? {} : { "aria-describedby": undefined })}
        className={clsx(
          "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100svh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col",
          "rounded-lg border bg-card text-card-foreground shadow-lg",
          className ?? "max-w-lg",
        )}
        {...props}
        {...focus}
      >
        <div className="flex items-start justify-between gap-4 border-b px-6 py-4">
          <div className="grid gap-1">
            <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="text-sm text-muted-foreground">
                {description}
              </DialogPrimitive.Description>
            ) : null}
          </div>
          <DialogPrimitive.Close
            aria-label="Close"
            className="rounded-sm p-1 text-muted-foreground hover:bg-accent hover:text-accent-foreground"
          >
            <X aria-hidden="true" className="size-4" />
          </DialogPrimitive.Close>
        </div>
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogBody({ className, ...props }: ComponentProps<"div">) {
  return <div className={clsx("min-h-0 flex-1 overflow-y-auto px-6 py-4", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={clsx("flex flex-col-reverse gap-2 border-t px-6 py-4 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

/** The form's one message for what no field holds; outside the scrolling body so it is seen wherever the button was pressed. */
export function FormMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="border-t px-6 pt-3">
      <ErrorAlert>{message}</ErrorAlert>
    </div>
  );
}
