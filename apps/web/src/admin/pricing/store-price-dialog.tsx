import type { Product, StorePrice } from "@glide/contracts";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { formatKronor } from "../../lib/format.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { type SaveCallbacks, useFormDialog } from "../lib/use-form-dialog.ts";
import { ProductPicker } from "../sessions/product-picker.tsx";
import {
  firstStorePriceField,
  PICK_A_PRODUCT,
  priceProblem,
  type StorePriceFormValues,
  storePriceFieldOf,
  toFormValues,
  toStorePriceUpdate,
} from "./store-price-form.ts";
import { type PriceOwner, useSetStorePrice } from "./use-store-prices.ts";

interface StorePriceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The store (or price group) whose price it is. */
  owner: PriceOwner;
  /** The override to edit; pick a product for a new one when absent. */
  item: StorePrice | undefined;
}

export function StorePriceDialog({ open, onOpenChange, owner, item }: StorePriceDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={item ? `Edit ${owner.noun}` : `Add ${owner.noun}`}
        description={
          item
            ? `What ${item.name} costs in ${owner.name}, from the next scan on.`
            : `A product's price in ${owner.name}, over the catalogue's, from the next scan on.`
        }
      >
        {/* Mounted per opening, so each opening starts from the override's current price. */}
        <StorePriceForm owner={owner} item={item} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

type Picked = Pick<Product, "id" | "name" | "sku" | "price">;

/** "Store price" from "store price": a label's first word capitalized. */
const capitalized = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

function StorePriceForm({
  owner,
  item,
  onDone,
}: {
  owner: PriceOwner;
  item: StorePrice | undefined;
  onDone: () => void;
}) {
  const pickerId = useId();
  const save = useSetStorePrice();
  const [picked, setPicked] = useState<Picked | null>(
    item ? { id: item.product_id, name: item.name, sku: item.sku, price: item.catalogue_price } : null,
  );
  const { form, formProps } = useFormDialog({
    defaultValues: toFormValues(item),
    fieldOf: storePriceFieldOf,
    first: firstStorePriceField,
    save: (values: StorePriceFormValues, callbacks: SaveCallbacks<StorePrice>) =>
      save.mutate({ path: owner.path, productId: values.product_id, input: toStorePriceUpdate(values) }, callbacks),
    savedText: (saved) => `${capitalized(owner.noun)} of ${saved.name} saved`,
    failure: `Failed to save the ${owner.noun}`,
    onDone,
  });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const productError = errors.product_id?.message;

  return (
    <DialogForm {...formProps} submitLabel={item ? "Save Changes" : `Add ${owner.noun}`} busy={save.isPending}>
      <div className="grid gap-4">
        <Controller
          control={control}
          name="product_id"
          rules={{ required: PICK_A_PRODUCT }}
          render={({ field }) =>
            picked ? (
              <div className="grid gap-1.5">
                <p className="text-sm font-medium">Product</p>
                <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
                  <p className="min-w-0">
                    <span className="font-medium">{picked.name}</span>{" "}
                    <span className="text-muted-foreground">{picked.sku}</span>
                    <br />
                    <span className="text-sm text-muted-foreground">
                      Catalogue price <span className="tabular-nums">{formatKronor(picked.price)}</span>
                    </span>
                  </p>
                  {item ? null : (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      onClick={() => {
                        setPicked(null);
                        field.onChange("");
                      }}
                    >
                      Change product
                    </Button>
                  )}
                </div>
              </div>
            ) : (
              <div className="grid gap-1.5">
                <ProductPicker
                  id={pickerId}
                  label="Product"
                  inline
                  inputRef={field.ref}
                  control={{
                    "aria-invalid": productError ? true : undefined,
                    "aria-describedby": productError ? `${pickerId}-error` : undefined,
                  }}
                  onPick={(product) => {
                    setPicked(product);
                    field.onChange(product.id);
                  }}
                />
                {productError ? (
                  <p id={`${pickerId}-error`} className="text-sm text-destructive">
                    {productError}
                  </p>
                ) : null}
              </div>
            )
          }
        />
        <Field label={`${capitalized(owner.noun)} (kr)`} error={errors.price?.message}>
          {(id, aria) => (
            <Input
              id={id}
              {...aria}
              inputMode="decimal"
              autoComplete="off"
              aria-required="true"
              className="sm:w-40"
              {...register("price", { validate: (value) => priceProblem(value) ?? true })}
            />
          )}
        </Field>
      </div>
    </DialogForm>
  );
}
