import { DEFAULT_VAT_CATEGORY, type Product } from "@glide/contracts";
import { useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { type SaveCallbacks, useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
import { useVatRates } from "../lib/use-vat-rates.ts";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";
import { comparisonHint } from "./comparison-price.ts";
import {
  firstProductField,
  hasRequiredFields,
  type ProductFormValues,
  productFieldOf,
  toFormValues,
  toProductInput,
  VAT_COUNTRY,
  vatPercentToday,
  vatTodayText,
} from "./product-form.ts";
import { ProductFormFields } from "./product-form-fields.tsx";
import { useCategories, useCreateProduct, useUpdateProduct, useUploadProductImage } from "./use-products.ts";

interface ProductDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The product to edit; add a new one when absent. */
  product?: Product;
}

export function ProductDialog({ open, onOpenChange, product }: ProductDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={product ? "Edit Product" : "Add Product"} className="max-w-2xl">
        {/* Mounted per opening, so each opening starts from the product's current values. */}
        <ProductForm product={product} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProductForm({ product, onDone }: { product?: Product; onDone: () => void }) {
  // A new product's VAT category starts at the global default one.
  const effective = useEffectiveSettings();
  const defaultVat = effectiveValue(effective.data, "product", "default_vat_category") ?? DEFAULT_VAT_CATEGORY;
  const vatRates = useVatRates(VAT_COUNTRY);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const upload = useUploadProductImage();
  const categories = useCategories();
  const mutation = product ? update : create;
  const { form, formProps } = useFormDialog({
    defaultValues: toFormValues(product, defaultVat),
    fieldOf: productFieldOf,
    first: firstProductField,
    save: (values: ProductFormValues, callbacks: SaveCallbacks<Product>) => {
      const input = toProductInput(values);
      if (product) update.mutate({ id: product.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: (saved) => (product ? `${saved.name} updated` : `${saved.name} added`),
    failure: product ? "Failed to update product" : "Failed to create product",
    // A new product's form is emptied as it closes.
    onSaved: () => {
      if (!product) form.reset(toFormValues(undefined, defaultVat));
    },
    onDone,
  });
  const {
    register,
    control,
    setValue,
    reset,
    formState: { errors },
  } = form;
  const [sku, name, price, vatCategory, netContent, netContentUnit] = useWatch({
    control,
    name: ["sku", "name", "price", "vat_category", "net_content", "net_content_unit"],
  });
  // Add Product waits for the three required fields; Update Product has no such rule.
  const incomplete = !product && !hasRequiredFields({ sku, name, price });
  // Settings that answer after the form opened set the VAT category unless the person has already chosen one.
  useLateDefaults(reset, defaultVat, () => (product ? undefined : toFormValues(undefined, defaultVat)));

  return (
    <DialogForm
      {...formProps}
      submitLabel={product ? "Update Product" : "Add Product"}
      busy={mutation.isPending}
      disabled={incomplete || upload.isPending}
    >
      <ProductFormFields
        register={register}
        control={control}
        setValue={setValue}
        errors={errors}
        upload={upload}
        categories={categories.data ?? []}
        vatHint={vatTodayText(vatPercentToday(vatCategory, product, vatRates.data))}
        comparisonHint={comparisonHint({ price, net_content: netContent, net_content_unit: netContentUnit })}
      />
    </DialogForm>
  );
}
