import type { MultiBuyOffer } from "@glide/contracts";
import { useId } from "react";
import { Controller, useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { DialogForm } from "../lib/dialog-form.tsx";
import { useStores } from "../lib/store-list.ts";
import { type SaveCallbacks, useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
import { MembersOnlyField } from "./members-only.tsx";
import {
  amountProblem,
  buyProblem,
  firstOfferField,
  limitProblem,
  type OfferFormValues,
  offerFieldOf,
  toFormValues,
  toOfferInput,
  withProduct,
} from "./offer-form.ts";
import { OfferProductsField } from "./offer-products-field.tsx";
import { useCreateOffer, useUpdateOffer } from "./use-offers.ts";

interface OfferDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The offer to edit; a new one when absent. */
  offer?: MultiBuyOffer | undefined;
}

export function OfferDialog({ open, onOpenChange, offer }: OfferDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={offer ? "Edit offer" : "New offer"}
        description="Several units of one product, or of a set to mix and match, for less: from the first day to the last, in each store's own calendar."
        className="max-w-2xl"
      >
        {/* Mounted per opening, so each opening starts from the offer's current values. */}
        <OfferForm offer={offer} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

const KINDS = [
  { value: "one_free", label: "Pay for all but one", hint: "3 för 2: the cheapest unit is free" },
  { value: "amount", label: "Fixed price", hint: "2 för 35 kr: the units together at a price" },
] as const;

function OfferForm({ offer, onDone }: { offer: MultiBuyOffer | undefined; onDone: () => void }) {
  const platformAdmin = useIsPlatformAdmin();
  // The server lists only the stores the admin may see: a store admin's own.
  const stores = useStores("").data ?? [];
  const create = useCreateOffer();
  const update = useUpdateOffer();
  const mutation = offer ? update : create;
  const { form, formProps } = useFormDialog({
    // A platform admin starts with every store; a store admin with their first.
    defaultValues: toFormValues(offer, platformAdmin ? "" : (stores[0]?.id ?? "")),
    fieldOf: offerFieldOf,
    first: firstOfferField,
    save: (values: OfferFormValues, callbacks: SaveCallbacks<MultiBuyOffer>) => {
      const input = toOfferInput(values);
      if (offer) update.mutate({ id: offer.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: () => (offer ? "Offer updated" : "Offer added"),
    failure: offer ? "Failed to update the offer" : "Failed to add the offer",
    onDone,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  // A store admin's stores may answer after the dialog opened: a new offer then starts in the first.
  const firstStore = stores[0]?.id;
  useLateDefaults(form.reset, firstStore, () =>
    offer || platformAdmin || !firstStore ? undefined : { ...form.getValues(), store_id: firstStore },
  );
  const kind = useWatch({ control, name: "kind" });
  const kindErrorId = useId();
  // The last day's picker starts at the first day; a day typed before it is still sent, and the server says why not.
  const startsOn = useWatch({ control, name: "starts_on" });

  return (
    <DialogForm {...formProps} submitLabel={offer ? "Save Changes" : "Add offer"} busy={mutation.isPending}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field label="Label" hint="As the cart and the kvitto show it, e.g. 3 för 2" error={errors.label?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              autoComplete="off"
              aria-required="true"
              maxLength={40}
              {...register("label", { validate: (value) => (value.trim() === "" ? "Enter a label" : true) })}
            />
          )}
        </Field>
        <Field label="Buy (units)" error={errors.buy?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              inputMode="numeric"
              autoComplete="off"
              aria-required="true"
              {...register("buy", { validate: (value) => buyProblem(value) ?? true })}
            />
          )}
        </Field>
        <fieldset className="grid gap-2 sm:col-span-2" aria-describedby={errors.kind ? kindErrorId : undefined}>
          <legend className="mb-1.5 text-sm font-medium">Deal</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {KINDS.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-2 rounded-md border p-3 text-sm has-[:checked]:border-primary"
              >
                <input
                  type="radio"
                  value={option.value}
                  className="mt-0.5 size-4 accent-primary"
                  {...register("kind")}
                />
                <span className="grid gap-0.5">
                  <span className="font-medium">{option.label}</span>
                  <span className="text-muted-foreground">{option.hint}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.kind ? (
            <p id={kindErrorId} className="text-sm text-destructive">
              {errors.kind.message}
            </p>
          ) : null}
        </fieldset>
        {kind === "amount" ? (
          <Field label="Price for the units (kr)" error={errors.amount?.message}>
            {(id, aria) => (
              <Input
                id={id}
                {...aria}
                inputMode="decimal"
                autoComplete="off"
                aria-required="true"
                {...register("amount", {
                  validate: (value, values) => (values.kind === "amount" ? (amountProblem(value) ?? true) : true),
                })}
              />
            )}
          </Field>
        ) : null}
        <Controller
          control={control}
          name="products"
          rules={{ validate: (products) => (products.length > 0 ? true : "Choose at least one product") }}
          render={({ field }) => (
            <OfferProductsField
              products={field.value}
              inputRef={field.ref}
              error={errors.products?.message}
              onChange={field.onChange}
              onPick={(product) => field.onChange(withProduct(field.value, product))}
            />
          )}
        />
        <Field label="Store" error={errors.store_id?.message}>
          {(id, aria) => (
            <Select id={id} {...aria} {...register("store_id")}>
              {platformAdmin ? <option value="">All stores</option> : null}
              {stores.map((store) => (
                <option key={store.id} value={store.id}>
                  {store.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Limit per visit" hint="Empty for no limit" error={errors.limit_per_visit?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              inputMode="numeric"
              autoComplete="off"
              {...register("limit_per_visit", { validate: (value) => limitProblem(value) ?? true })}
            />
          )}
        </Field>
        <Field label="From" error={errors.starts_on?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              type="date"
              aria-required="true"
              {...register("starts_on", { required: "Choose the first day of the offer" })}
            />
          )}
        </Field>
        <Field label="To" error={errors.ends_on?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              type="date"
              aria-required="true"
              min={startsOn || undefined}
              {...register("ends_on", { required: "Choose the last day of the offer" })}
            />
          )}
        </Field>
        <MembersOnlyField control={control} name="members_only" rule="offer" error={errors.members_only?.message} />
      </div>
    </DialogForm>
  );
}
