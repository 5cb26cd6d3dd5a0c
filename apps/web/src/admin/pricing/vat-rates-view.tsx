import { COUNTRIES, type CountryCode, VAT_CATEGORY_LABELS, type VatRate } from "@glide/contracts";
import { Plus } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { useDeleteVatRate, useVatRates } from "../lib/use-vat-rates.ts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { CountryFilter } from "./country-filter.tsx";
import { VatRateDialog } from "./vat-rate-dialog.tsx";
import { VatRateList } from "./vat-rate-list.tsx";
import { formatRate, groupByCategory } from "./vat-rates.ts";

type EditorState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; rate: VatRate };

const countryName = (code: string) => COUNTRIES[code as CountryCode] ?? code;

interface VatRatesViewProps {
  country: string;
  onCountryChange: (country: string) => void;
}

/** The VAT rates tab: one country's periods per category; platform admins add, edit and delete them. */
export function VatRatesView({ country, onCountryChange }: VatRatesViewProps) {
  const canManage = useIsPlatformAdmin();
  const { isMobile } = useSidebar();
  const dates = useDateFormat();
  const rates = useVatRates(country);
  const remove = useDeleteVatRate();
  const [editor, setEditor] = useState<EditorState>({ mode: "closed" });
  const [toDelete, setToDelete] = useState<VatRate | null>(null);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => toast.success("VAT rate deleted"),
      onError: (error) => toast.error(errorMessage(error, "Failed to delete the VAT rate")),
    });
  };

  let body: ReactNode;
  if (rates.isPending) {
    body = <Spinner label="Loading VAT rates" />;
  } else if (rates.isError && !rates.data) {
    body = (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(rates.error, "Failed to load VAT rates")}</ErrorAlert>
        <Button variant="outline" onClick={() => void rates.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (rates.data.items.length === 0 && !rates.isPlaceholderData) {
    body = (
      <p className="rounded-lg border bg-card py-12 text-center text-muted-foreground">
        No VAT rates for {countryName(country)} yet
      </p>
    );
  } else {
    body = (
      <>
        <p className="text-sm text-muted-foreground">
          Current marks the rate sales are taxed at today ({dates.day(rates.data.today)} in Stockholm).
        </p>
        <VatRateList
          groups={groupByCategory(rates.data.items)}
          today={rates.data.today}
          phone={isMobile}
          canManage={canManage}
          busy={rates.isPlaceholderData}
          onEdit={(rate) => setEditor({ mode: "edit", rate })}
          onDelete={setToDelete}
        />
      </>
    );
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <CountryFilter country={country} onCountryChange={onCountryChange} />
        {canManage ? (
          <Button onClick={() => setEditor({ mode: "create" })}>
            <Plus aria-hidden="true" />
            Add VAT rate
          </Button>
        ) : null}
      </div>

      {body}

      <VatRateDialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => !open && setEditor({ mode: "closed" })}
        rate={editor.mode === "edit" ? editor.rate : undefined}
        country={country}
        // A period saved for another country is shown where it now is.
        onSaved={(saved) => saved.country !== country && onCountryChange(saved.country)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this VAT rate?"
        description={
          toDelete
            ? `${VAT_CATEGORY_LABELS[toDelete.category]}, ${formatRate(toDelete.rate)} from ${dates.day(toDelete.valid_from)} in ${countryName(toDelete.country)}, will be removed. Sales already made keep the rate they were taxed at.`
            : undefined
        }
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
