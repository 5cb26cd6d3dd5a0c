import { COUNTRIES, VAT_CATEGORIES, VAT_CATEGORY_LABELS, type VatRate } from "@glide/contracts";
import { useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { type SaveCallbacks, useFormDialog } from "../lib/use-form-dialog.ts";
import { useCreateVatRate, useUpdateVatRate } from "../lib/use-vat-rates.ts";
import {
  firstVatRateField,
  rateProblem,
  toFormValues,
  toVatRateInput,
  type VatRateFormValues,
  vatRateFieldOf,
} from "./vat-rate-form.ts";

interface VatRateDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The period to edit; add a new one when absent. */
  rate?: VatRate | undefined;
  /** A new period's country: the one on screen. */
  country: string;
  /** After a save, with the saved period (the screen shows its country). */
  onSaved: (saved: VatRate) => void;
}

export function VatRateDialog({ open, onOpenChange, rate, country, onSaved }: VatRateDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={rate ? "Edit VAT rate" : "Add VAT rate"}
        description="A category's rate in one country, from its first day to its last."
      >
        {/* Mounted per opening, so each opening starts from the period's current values. */}
        <VatRateForm rate={rate} country={country} onSaved={onSaved} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

interface VatRateFormProps {
  rate: VatRate | undefined;
  country: string;
  onSaved: (saved: VatRate) => void;
  onDone: () => void;
}

function VatRateForm({ rate, country, onSaved, onDone }: VatRateFormProps) {
  const create = useCreateVatRate();
  const update = useUpdateVatRate();
  const mutation = rate ? update : create;
  const { form, formProps } = useFormDialog({
    defaultValues: toFormValues(rate, country),
    fieldOf: vatRateFieldOf,
    first: firstVatRateField,
    save: (values: VatRateFormValues, callbacks: SaveCallbacks<VatRate>) => {
      const input = toVatRateInput(values);
      if (rate) update.mutate({ id: rate.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: () => (rate ? "VAT rate updated" : "VAT rate added"),
    failure: rate ? "Failed to update the VAT rate" : "Failed to add the VAT rate",
    onSaved,
    onDone,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  // The last day's picker starts at the first day; a day typed before it is still sent, and the server says why not.
  const validFrom = useWatch({ control, name: "valid_from" });

  return (
    <DialogForm {...formProps} submitLabel={rate ? "Save Changes" : "Add VAT rate"} busy={mutation.isPending}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field label="Country" error={errors.country?.message}>
          {(id, aria) => (
            <Select id={id} {...aria} {...register("country")}>
              {Object.entries(COUNTRIES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Category" error={errors.category?.message}>
          {(id, aria) => (
            <Select id={id} {...aria} {...register("category")}>
              {VAT_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {VAT_CATEGORY_LABELS[category]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Rate (%)" error={errors.rate?.message} className="sm:col-span-2">
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              inputMode="decimal"
              autoComplete="off"
              aria-required="true"
              className="sm:w-40"
              {...register("rate", { validate: (value) => rateProblem(value) ?? true })}
            />
          )}
        </Field>
        <Field label="Valid from" error={errors.valid_from?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              type="date"
              aria-required="true"
              {...register("valid_from", { required: "Choose the first day the rate is valid" })}
            />
          )}
        </Field>
        <Field label="Valid to (optional)" error={errors.valid_to?.message} hint="Leave empty for until further notice">
          {(id, aria) => <Input id={id} {...aria} type="date" min={validFrom || undefined} {...register("valid_to")} />}
        </Field>
      </div>
    </DialogForm>
  );
}
