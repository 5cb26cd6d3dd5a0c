import type { PriceCampaign } from "@glide/contracts";
import { useId, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { formatKronor } from "../../lib/format.ts";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { DialogForm } from "../lib/dialog-form.tsx";
import { useStores } from "../lib/store-list.ts";
import { type SaveCallbacks, useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
import { ProductPicker } from "../sessions/product-picker.tsx";
import {
  type CampaignFormValues,
  campaignFieldOf,
  firstCampaignField,
  type PickedProduct,
  pickedOf,
  priceProblem,
  toCampaignInput,
  toFormValues,
} from "./campaign-form.ts";
import { MembersOnlyField } from "./members-only.tsx";
import { useCreateCampaign, useUpdateCampaign } from "./use-campaigns.ts";

interface CampaignDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The campaign to edit; a new one when absent. */
  campaign?: PriceCampaign | undefined;
}

export function CampaignDialog({ open, onOpenChange, campaign }: CampaignDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={campaign ? "Edit campaign" : "New campaign"}
        description="A price below the ordinary one, from the first day to the last, in each store's own calendar."
      >
        {/* Mounted per opening, so each opening starts from the campaign's current values. */}
        <CampaignForm campaign={campaign} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function CampaignForm({ campaign, onDone }: { campaign: PriceCampaign | undefined; onDone: () => void }) {
  const platformAdmin = useIsPlatformAdmin();
  // The server lists only the stores the admin may see: a store admin's own.
  const stores = useStores("").data ?? [];
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const mutation = campaign ? update : create;
  const [picked, setPicked] = useState<PickedProduct | null>(pickedOf(campaign));
  const productId = useId();
  const { form, formProps } = useFormDialog({
    // A platform admin starts with every store; a store admin with their first.
    defaultValues: toFormValues(campaign, platformAdmin ? "" : (stores[0]?.id ?? "")),
    fieldOf: campaignFieldOf,
    first: firstCampaignField,
    save: (values: CampaignFormValues, callbacks: SaveCallbacks<PriceCampaign>) => {
      const input = toCampaignInput(values);
      if (campaign) update.mutate({ id: campaign.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: () => (campaign ? "Campaign updated" : "Campaign added"),
    failure: campaign ? "Failed to update the campaign" : "Failed to add the campaign",
    onDone,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  // A store admin's stores may answer after the dialog opened: a new campaign then starts in the first.
  const firstStore = stores[0]?.id;
  useLateDefaults(form.reset, firstStore, () =>
    campaign || platformAdmin || !firstStore ? undefined : { ...form.getValues(), store_id: firstStore },
  );
  // The last day's picker starts at the first day; a day typed before it is still sent, and the server says why not.
  const startsOn = useWatch({ control, name: "starts_on" });
  const productError = errors.product_id?.message;

  return (
    <DialogForm {...formProps} submitLabel={campaign ? "Save Changes" : "Add campaign"} busy={mutation.isPending}>
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
        <Field label="From" error={errors.starts_on?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              type="date"
              aria-required="true"
              {...register("starts_on", { required: "Choose the first day of the campaign" })}
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
              {...register("ends_on", { required: "Choose the last day of the campaign" })}
            />
          )}
        </Field>
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
