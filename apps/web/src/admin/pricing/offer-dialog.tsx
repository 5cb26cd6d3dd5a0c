import type { MultiBuyOffer } from "@glide/contracts";
import { useId } from "react";
import { Controller, useWatch } from "react-hook-form";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import {
  DatedRuleDialog,
  type DatedRuleDialogProps,
  RuleDaysFields,
  RuleStoreField,
  useDatedRuleForm,
} from "./dated-rule-form.tsx";
import { MembersOnlyField } from "./members-only.tsx";
import {
  amountProblem,
  buyProblem,
  firstOfferField,
  limitProblem,
  offerFieldOf,
  toFormValues,
  toOfferInput,
  withProduct,
} from "./offer-form.ts";
import { OfferProductsField } from "./offer-products-field.tsx";
import { useCreateOffer, useUpdateOffer } from "./use-offers.ts";

/** The offer dialog: a new offer, or the one to edit. */
export function OfferDialog({ open, onOpenChange, rule }: DatedRuleDialogProps<MultiBuyOffer>) {
  return (
    <DatedRuleDialog
      open={open}
      onOpenChange={onOpenChange}
      noun="offer"
      editing={rule !== undefined}
      description="Several units of one product, or of a set to mix and match, for less: from the first day to the last, in each store's own calendar."
      className="max-w-2xl"
    >
      <OfferForm offer={rule} onDone={() => onOpenChange(false)} />
    </DatedRuleDialog>
  );
}

const KINDS = [
  { value: "one_free", label: "Pay for all but one", hint: "3 för 2: the cheapest unit is free" },
  { value: "amount", label: "Fixed price", hint: "2 för 35 kr: the units together at a price" },
] as const;

function OfferForm({ offer, onDone }: { offer: MultiBuyOffer | undefined; onDone: () => void }) {
  const { form, shared, formProps, stores, platformAdmin } = useDatedRuleForm({
    rule: offer,
    noun: "offer",
    valuesOf: toFormValues,
    fieldOf: offerFieldOf,
    first: firstOfferField,
    inputOf: toOfferInput,
    create: useCreateOffer(),
    update: useUpdateOffer(),
    onDone,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const kind = useWatch({ control, name: "kind" });
  const kindErrorId = useId();

  return (
    <DialogForm {...formProps}>
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
        <RuleStoreField form={shared} stores={stores} platformAdmin={platformAdmin} />
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
        <RuleDaysFields form={shared} noun="offer" />
        <MembersOnlyField control={control} name="members_only" rule="offer" error={errors.members_only?.message} />
      </div>
    </DialogForm>
  );
}
