import { type ChangeEvent, useId } from "react";
import { controlClass } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";

/**
 * The "CSV file" field of an import dialog: a file input with its hint,
 * handing over the file's text once read (null when the choice is cleared).
 * The dialog keeps that text and applies it later, whatever happens to the
 * file on disk meanwhile.
 */
export function CsvFileField({ hint, onText }: { hint: string; onText: (text: string | null) => void }) {
  const fileId = useId();
  const hintId = useId();
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    onText(file ? await file.text() : null);
  };
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={fileId}>CSV file</Label>
      <input
        id={fileId}
        type="file"
        accept=".csv,text/csv"
        aria-describedby={hintId}
        onChange={(event) => void onChange(event)}
        className={`${controlClass} py-2 file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-2 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground`}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        {hint}
      </p>
    </div>
  );
}
