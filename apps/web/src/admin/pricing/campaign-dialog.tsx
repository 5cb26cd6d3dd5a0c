import type { PriceCampaign } from "@glide/contracts";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { formatKronor } from "../../lib/format.ts";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { ProductPicker } from "../sessions/product-picker.tsx";
import {
  campaignFieldOf,
  firstCampaignField,
  type PickedProduct,
  pickedOf,
  priceProblem,
  toCampaignInput,
  toFormValues,
} from "./campaign-form.ts";
import {
  DatedRuleDialog,
  type DatedRuleDialogProps,
  RuleDaysFields,
  RuleStoreField,
  useDatedRuleForm,
} from "./dated-rule-form.tsx";
import { MembersOnlyField } from "./members-only.tsx";
import { useCreateCampaign, useUpdateCampaign } from "./use-campaigns.ts";

/** The campaign dialog: a new campaign, or the one to edit. */
export function CampaignDialog({ open, onOpenChange, rule }: DatedRuleDialogProps<PriceCampaign>) {
  return (
    <DatedRuleDialog
      open={open}
      onOpenChange={onOpenChange}
      noun="campaign"
      editing={rule !== undefined}
      description="A price below the ordinary one, from the first day to the last, in each store's own calendar."
    >
      <CampaignForm campaign={rule} onDone={() => onOpenChange(false)} />
    </DatedRuleDialog>
  );
}

function CampaignForm({ campaign, onDone }: { campaign: PriceCampaign | undefined; onDone: () => void }) {
  const { form, shared, formProps, stores, platformAdmin } = useDatedRuleForm({
    rule: campaign,
    noun: "campaign",
    valuesOf: toFormValues,
    fieldOf: campaignFieldOf,
    first: firstCampaignField,
    inputOf: toCampaignInput,
    create: useCreateCampaign(),
    update: useUpdateCampaign(),
    onDone,
  });
  const [picked, setPicked] = useState<PickedProduct | null>(pickedOf(campaign));
  const productId = useId();
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const productError = errors.product_id?.message;

  return (
    <DialogForm {...formProps}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="product_id"
          rules={{ required: "Choose the product on campaign" }}
          render={({ field }) => (
            <div className="grid gap-1.5 sm:col-span-2">
              <ProductPicker
                id={productId}
                label="Product"
                inputRef={field.ref}
                control={{
                  "aria-invalid": productError ? true : undefined,
                  "aria-describedby": `${productId}-picked${productError ? ` ${productId}-error` : ""}`,
                }}
                onPick={(product) => {
                  setPicked({ id: product.id, name: product.name, sku: product.sku, price: product.price });
                  field.onChange(product.id);
                }}
              />
              <p id={`${productId}-picked`} className="text-sm">
                {picked ? (
                  <>
                    <span className="font-medium">{picked.name}</span>{" "}
                    <span className="text-muted-foreground">
                      {picked.sku} · ordinary price {formatKronor(picked.price)}
                    </span>
                  </>
                ) : (
                  <span className="text-muted-foreground">No product chosen yet</span>
                )}
              </p>
              {productError ? (
                <p id={`${productId}-error`} className="text-sm text-destructive">
                  {productError}
                </p>
              ) : null}
            </div>
          )}
        />
        <RuleStoreField form={shared} stores={stores} platformAdmin={platformAdmin} />
        <Field label="Campaign price (kr)" error={errors.price?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              inputMode="decimal"
              autoComplete="off"
              aria-required="true"
              {...register("price", { validate: (value) => priceProblem(value) ?? true })}
            />
          )}
        </Field>
        <RuleDaysFields form={shared} noun="campaign" />
        <MembersOnlyField
          control={control}
          name="members_only"
          rule="campaign price"
          error={errors.members_only?.message}
        />
      </div>
    </DialogForm>
  );
}
