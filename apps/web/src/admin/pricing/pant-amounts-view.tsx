import { COUNTRIES, type CountryCode, PANT_CODE_LABELS, type PantAmount } from "@glide/contracts";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { CountryFilter } from "./country-filter.tsx";
import { PantAmountDialog } from "./pant-amount-dialog.tsx";
import { PantAmountList } from "./pant-amount-list.tsx";
import { formatPantAmount } from "./pant-amounts.ts";
import { usePantAmounts, useRemovePantAmount } from "./use-pant-amounts.ts";

const countryName = (code: string) => COUNTRIES[code as CountryCode] ?? code;

interface PantAmountsViewProps {
  country: string;
  onCountryChange: (country: string) => void;
}

/** The Pant tab: what each mark is worth in one country; platform admins edit and remove amounts. */
export function PantAmountsView({ country, onCountryChange }: PantAmountsViewProps) {
  const canManage = useIsPlatformAdmin();
  const { isMobile } = useSidebar();
  const amounts = usePantAmounts(country);
  const remove = useRemovePantAmount();
  // The mark stays while the dialog closes, so its words do not change as it fades.
  const [editor, setEditor] = useState<{ open: boolean; item?: PantAmount }>({ open: false });
  const [toRemove, setToRemove] = useState<PantAmount | null>(null);

  const confirmRemove = () => {
    if (!toRemove) return;
    remove.mutate(toRemove, {
      onSuccess: () => toast.success("Pant removed"),
      onError: (error) => toast.error(errorMessage(error, "Failed to remove the pant")),
    });
  };

  let body: ReactNode;
  if (amounts.isPending) {
    body = <Spinner label="Loading pant" />;
  } else if (amounts.isError && !amounts.data) {
    body = (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(amounts.error, "Failed to load pant")}</ErrorAlert>
        <Button variant="outline" onClick={() => void amounts.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <PantAmountList
        items={amounts.data.items}
        label={`Pant in ${countryName(amounts.data.country)}`}
        phone={isMobile}
        canManage={canManage}
        busy={amounts.isPlaceholderData}
        onEdit={(item) => setEditor({ open: true, item })}
        onRemove={setToRemove}
      />
    );
  }

  return (
    <div className="grid gap-4">
      <div className="grid gap-3">
        <CountryFilter country={country} onCountryChange={onCountryChange} />
        <p className="text-sm text-muted-foreground">
          What the shopper pays for each pant mark and gets back at a pant machine. A mark without an amount carries no
          pant in this country. A change counts from the next scan; carts already filled keep theirs.
        </p>
      </div>

      {body}

      <PantAmountDialog
        open={editor.open}
        onOpenChange={(open) => setEditor((last) => ({ ...last, open }))}
        item={editor.item}
      />
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => !open && setToRemove(null)}
        title="Remove this pant?"
        description={
          toRemove && toRemove.amount !== null
            ? `${PANT_CODE_LABELS[toRemove.code]} (${formatPantAmount(toRemove.amount)}) will carry no pant in ${countryName(toRemove.country)} from the next scan. Carts already filled keep theirs.`
            : undefined
        }
        confirmLabel="Remove"
        destructive
        onConfirm={confirmRemove}
      />
    </div>
  );
}
