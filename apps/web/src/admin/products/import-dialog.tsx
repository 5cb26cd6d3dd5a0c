import type { ImportReport } from "@glide/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { pluralize } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { CsvFileField } from "../lib/csv-file-field.tsx";
import { useImportProducts } from "./use-products.ts";

interface ImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ImportDialog({ open, onOpenChange }: ImportDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Import CSV"
        description="Rows are matched by SKU: new SKUs are added, known ones updated."
        className="max-w-xl"
      >
        {/* Mounted per opening, so each opening starts without a file. */}
        <ImportFlow onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function appliedMessage(report: ImportReport): string {
  const parts = [`${report.created} created`, `${report.updated} updated`];
  if (report.rejected > 0) parts.push(`${report.rejected} skipped`);
  return `Products imported: ${parts.join(", ")}`;
}

/** Choose a file → dry run → the report → apply (skipping rejected rows if there are any). */
function ImportFlow({ onDone }: { onDone: () => void }) {
  const dryRun = useImportProducts();
  const apply = useImportProducts();
  const [csv, setCsv] = useState<string | null>(null);

  const onText = (text: string | null) => {
    apply.reset();
    setCsv(text);
    if (text === null) dryRun.reset();
    else dryRun.mutate({ csv: text, dryRun: true });
  };

  const report = dryRun.data;
  const good = report ? report.created + report.updated : 0;
  const rejectedRows = report?.rows.filter((row) => row.action === "reject") ?? [];

  const applyImport = () => {
    if (!csv || !report) return;
    apply.mutate(
      { csv, dryRun: false, skipRejected: report.rejected > 0 },
      {
        onSuccess: (applied) => {
          toast.success(appliedMessage(applied));
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogBody className="grid gap-4">
        <CsvFileField
          hint="A header row with at least sku, name and price; the same columns as Export CSV. Nothing is saved until you import."
          onText={onText}
        />

        {dryRun.isPending ? <Spinner label="Checking the file" className="p-4" /> : null}
        {dryRun.isError ? <ErrorAlert>{errorMessage(dryRun.error, "Failed to read the file")}</ErrorAlert> : null}

        {report ? (
          <section aria-label="Import check" className="grid gap-3">
            <p role="status" className="font-medium">
              {report.created} to create, {report.updated} to update, {report.rejected} rejected
            </p>
            {rejectedRows.length > 0 ? (
              <div className="grid gap-1.5">
                <h3 className="text-sm font-medium">Rejected lines</h3>
                <ul className="grid max-h-56 gap-1 overflow-y-auto rounded-md border bg-destructive-muted/40 p-3 text-sm">
                  {rejectedRows.map((row) => (
                    <li key={row.line} className="break-words">
                      Line {row.line}: {row.errors.join("; ")}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {good === 0 ? <p className="text-sm text-muted-foreground">There is nothing to import.</p> : null}
          </section>
        ) : null}

        {apply.isError ? <ErrorAlert>{errorMessage(apply.error, "Failed to import products")}</ErrorAlert> : null}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {report && good > 0 ? (
          <Button onClick={applyImport} disabled={apply.isPending} aria-busy={apply.isPending}>
            {report.rejected > 0
              ? `Import ${pluralize(good, "row", "rows")}, skip ${report.rejected} rejected`
              : `Import ${pluralize(good, "row", "rows")}`}
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}
