import type { StorePriceImportReport } from "@glide/contracts";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { pluralize } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { CsvFileField } from "../lib/csv-file-field.tsx";
import { type PriceOwner, useImportStorePrices } from "./use-store-prices.ts";

interface StorePriceImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The store (or price group) whose prices the file sets. */
  owner: PriceOwner;
}

export function StorePriceImportDialog({ open, onOpenChange, owner }: StorePriceImportDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={`Import ${owner.noun}s`}
        description={`Rows are matched by SKU and set ${owner.name}'s price; an empty price removes it. Every row is imported, or none.`}
        className="max-w-xl"
      >
        {/* Mounted per opening, so each opening starts without a file. */}
        <ImportFlow owner={owner} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

const changes = (report: StorePriceImportReport) => report.set + report.removed;

function appliedMessage(owner: PriceOwner, report: StorePriceImportReport): string {
  const what = `${owner.noun.charAt(0).toUpperCase()}${owner.noun.slice(1)}s`;
  return `${what} imported: ${report.set} set, ${report.removed} removed, ${report.unchanged} unchanged`;
}

/** Choose a file → dry run → the report → apply (only a file without rejected rows). */
function ImportFlow({ owner, onDone }: { owner: PriceOwner; onDone: () => void }) {
  const dryRun = useImportStorePrices();
  const apply = useImportStorePrices();
  const [csv, setCsv] = useState<string | null>(null);

  const onText = (text: string | null) => {
    apply.reset();
    setCsv(text);
    if (text === null) dryRun.reset();
    else dryRun.mutate({ path: owner.path, csv: text, dryRun: true });
  };

  const report = dryRun.data;
  const rejectedRows = report?.rows.filter((row) => row.action === "reject") ?? [];

  const applyImport = () => {
    if (!csv) return;
    apply.mutate(
      { path: owner.path, csv, dryRun: false },
      {
        onSuccess: (applied) => {
          toast.success(appliedMessage(owner, applied));
          onDone();
        },
      },
    );
  };

  return (
    <>
      <DialogBody className="grid gap-4">
        <CsvFileField
          hint="A header row with sku and price, as Export CSV writes it. Nothing is saved until you import."
          onText={onText}
        />

        {dryRun.isPending ? <Spinner label="Checking the file" className="p-4" /> : null}
        {dryRun.isError ? <ErrorAlert>{errorMessage(dryRun.error, "Failed to read the file")}</ErrorAlert> : null}

        {report ? (
          <section aria-label="Import check" className="grid gap-3">
            <p role="status" className="font-medium">
              {report.set} to set, {report.removed} to remove, {report.unchanged} unchanged, {report.rejected} rejected
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
                <p className="text-sm text-muted-foreground">Fix these lines and choose the file again.</p>
              </div>
            ) : changes(report) === 0 ? (
              <p className="text-sm text-muted-foreground">There is nothing to change.</p>
            ) : null}
          </section>
        ) : null}

        {apply.isError ? <ErrorAlert>{errorMessage(apply.error, "Failed to import the prices")}</ErrorAlert> : null}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {report && report.rejected === 0 && changes(report) > 0 ? (
          <Button onClick={applyImport} disabled={apply.isPending} aria-busy={apply.isPending}>
            Import {pluralize(changes(report), "change", "changes")}
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}
