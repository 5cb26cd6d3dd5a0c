// Placeholder until the refunds work lands: the Sessions screen mounts this from the session detail.
export type RefundDialogProps = {
  orderId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a refund was made, so the detail reloads. */
  onRefunded?: () => void;
};

export function RefundDialog(_props: RefundDialogProps) {
  return null;
}
