import type { PriceGroup } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { type SaveCallbacks, useFormDialog } from "../lib/use-form-dialog.ts";
import { useSavePriceGroup } from "./use-price-groups.ts";

interface PriceGroupDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The group to rename; a new group when absent. */
  group: PriceGroup | undefined;
  /** After a save, with the group saved (the view shows a new group). */
  onSaved: (group: PriceGroup) => void;
}

type Values = { name: string };
const FIELDS = ["name"] as const;
const fieldOf = fieldMapper<Values>(FIELDS);

export function PriceGroupDialog({ open, onOpenChange, group, onSaved }: PriceGroupDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={group ? "Rename price group" : "New price group"}
        description="Stores in a price group share its prices where they have none of their own."
      >
        {/* Mounted per opening, so each opening starts from the group's current name. */}
        <PriceGroupForm group={group} onSaved={onSaved} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function PriceGroupForm({
  group,
  onSaved,
  onDone,
}: {
  group: PriceGroup | undefined;
  onSaved: (group: PriceGroup) => void;
  onDone: () => void;
}) {
  const save = useSavePriceGroup();
  const { form, formProps } = useFormDialog({
    defaultValues: { name: group?.name ?? "" },
    fieldOf,
    first: (fields) => FIELDS.find((f) => fields.includes(f)),
    save: (values: Values, callbacks: SaveCallbacks<PriceGroup>) =>
      save.mutate({ id: group?.id, input: { name: values.name.trim() } }, callbacks),
    savedText: (saved) => `Price group ${saved.name} saved`,
    failure: "Failed to save the price group",
    onSaved,
    onDone,
  });
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <DialogForm {...formProps} submitLabel={group ? "Save Changes" : "Create price group"} busy={save.isPending}>
      <Field label="Name" error={errors.name?.message}>
        {(id, aria) => (
          <Input
            id={id}
            {...aria}
            autoComplete="off"
            aria-required="true"
            {...register("name", { validate: (value) => (value.trim() ? true : "Enter a name") })}
          />
        )}
      </Field>
    </DialogForm>
  );
}
