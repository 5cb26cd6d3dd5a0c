import type { ReactNode } from "react";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import type { ConfirmAction } from "./use-confirm-action.ts";

/** An offer staff may take ("plain"), or a visit that waits for staff ("alert", red). */
const TONES = {
  plain: {
    section: "grid gap-3 rounded-lg border p-4",
    text: "text-sm text-muted-foreground",
    problem: undefined,
    button: "outline",
  },
  alert: {
    section: "grid gap-3 rounded-lg border border-destructive/50 bg-destructive-muted p-4",
    text: "text-sm",
    problem: "bg-card",
    button: "primary",
  },
} as const;

interface ConfirmActionPanelProps {
  /** From useConfirmAction. */
  action: ConfirmAction;
  /** Whether the visit allows the action; the panel also stays while it runs. */
  show: boolean;
  /** The heading's id, which names the panel. */
  headingId: string;
  tone: keyof typeof TONES;
  heading: ReactNode;
  text: string;
  /** The button's words, and its words while the action runs. */
  label: string;
  pendingLabel: string;
  /** The confirmation the button opens. */
  confirm: { title: string; description: string; label: string };
  /** Buttons beside the first: other ways to settle (Write off). */
  more?: ReactNode;
  /** The dialogs those buttons open. */
  children?: ReactNode;
}

/**
 * A panel in a visit's dialog for an action staff confirm first: what it is
 * about, the problem if the last try failed, and the button. Once done the
 * panel goes with the visit's state and a line says what was done.
 */
export function ConfirmActionPanel({
  action,
  show,
  headingId,
  tone,
  heading,
  text,
  label,
  pendingLabel,
  confirm,
  more,
  children,
}: ConfirmActionPanelProps) {
  const style = TONES[tone];
  return (
    <>
      {show || action.pending ? (
        <section aria-labelledby={headingId} className={style.section}>
          <div className="grid gap-1">
            <h3 id={headingId} className="font-semibold">
              {heading}
            </h3>
            <p className={style.text}>{text}</p>
          </div>
          {action.problem ? <ErrorAlert className={style.problem}>{action.problem}</ErrorAlert> : null}
          {/* One button stands alone; with more they wrap in a row. */}
          <div className={more ? "flex flex-wrap gap-2" : undefined}>
            {/* aria-disabled, not disabled: the button keeps the focus the confirmation gave back while it runs. */}
            <Button
              variant={style.button}
              className="aria-disabled:cursor-wait aria-disabled:opacity-50"
              aria-disabled={action.pending || undefined}
              onClick={action.whenIdle(() => action.setConfirming(true))}
            >
              {action.pending ? pendingLabel : label}
            </Button>
            {more}
          </div>
        </section>
      ) : null}
      {action.done ? (
        <p ref={action.doneLine} role="status" tabIndex={-1} className="rounded-lg border p-3 text-sm font-medium">
          {action.done}
        </p>
      ) : null}
      <ConfirmDialog
        open={action.confirming}
        onOpenChange={action.setConfirming}
        title={confirm.title}
        description={confirm.description}
        confirmLabel={confirm.label}
        onConfirm={action.confirm}
      />
      {children}
    </>
  );
}
