import { COUNTRIES, type CountryCode, PANT_CODE_LABELS, type PantAmount } from "@glide/contracts";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { type SaveCallbacks, useFormDialog } from "../lib/use-form-dialog.ts";
import {
  amountProblem,
  firstPantAmountField,
  type PantAmountFormValues,
  pantAmountFieldOf,
  toFormValues,
  toPantAmountUpdate,
} from "./pant-amount-form.ts";
import { useSetPantAmount } from "./use-pant-amounts.ts";

interface PantAmountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The mark to set the amount of, in its country. */
  item: PantAmount | undefined;
}

const countryName = (code: string) => COUNTRIES[code as CountryCode] ?? code;

export function PantAmountDialog({ open, onOpenChange, item }: PantAmountDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit pant"
        description={
          item
            ? `What ${PANT_CODE_LABELS[item.code]} is worth in ${countryName(item.country)}, from the next scan on.`
            : undefined
        }
      >
        {/* Mounted per opening, so each opening starts from the mark's current amount. */}
        {item ? <PantAmountForm item={item} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function PantAmountForm({ item, onDone }: { item: PantAmount; onDone: () => void }) {
  const save = useSetPantAmount();
  const { form, formProps } = useFormDialog({
    defaultValues: toFormValues(item),
    fieldOf: pantAmountFieldOf,
    first: firstPantAmountField,
    save: (values: PantAmountFormValues, callbacks: SaveCallbacks<PantAmount>) =>
      save.mutate({ country: item.country, code: item.code, input: toPantAmountUpdate(values) }, callbacks),
    savedText: () => "Pant updated",
    failure: "Failed to update the pant",
    onDone,
  });
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <DialogForm {...formProps} submitLabel="Save Changes" busy={save.isPending}>
      <Field label="Amount (kr)" error={errors.amount?.message}>
        {(id, aria) => (
          <Input
            id={id}
            {...aria}
            inputMode="decimal"
            autoComplete="off"
            aria-required="true"
            className="sm:w-40"
            {...register("amount", { validate: (value) => amountProblem(value) ?? true })}
          />
        )}
      </Field>
    </DialogForm>
  );
}
