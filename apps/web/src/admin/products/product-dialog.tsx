import { PRODUCT_DEFAULTS, type Product } from "@glide/contracts";
import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useServerErrors } from "../../lib/form-errors.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";
import {
  firstProductField,
  hasRequiredFields,
  type ProductFormValues,
  productFieldOf,
  toFormValues,
  toProductInput,
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
  // A new product's VAT starts at the global default VAT rate (a fraction in settings, a percent here).
  const effective = useEffectiveSettings();
  const defaultVatRate = effectiveValue(effective.data, "product", "default_vat_rate");
  const defaultVat =
    defaultVatRate === undefined ? PRODUCT_DEFAULTS.vat_rate : Math.round(defaultVatRate * 10_000) / 100;
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const upload = useUploadProductImage();
  const categories = useCategories();
  const mutation = product ? update : create;
  const failure = product ? "Failed to update product" : "Failed to create product";
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<ProductFormValues>({ defaultValues: toFormValues(product, defaultVat) });
  const server = useServerErrors({ setError, setFocus, fieldOf: productFieldOf, first: firstProductField });
  const [sku, name, price] = useWatch({ control, name: ["sku", "name", "price"] });
  // Add Product waits for the three required fields; Update Product has no such rule.
  const incomplete = !product && !hasRequiredFields({ sku, name, price });

  // Settings that answer after the form opened set the VAT unless the person has already typed one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the default changes, for a new product only.
  useEffect(() => {
    if (!product) reset(toFormValues(undefined, defaultVat), { keepDirtyValues: true });
  }, [defaultVat]);

  const onValid = (values: ProductFormValues) => {
    server.clear();
    const input = toProductInput(values);
    // Failures keep the dialog open: each problem beside its field, anything else once above the buttons.
    const onError = (error: unknown) => server.show(error, failure);
    if (product) {
      update.mutate(
        { id: product.id, input },
        {
          onSuccess: (saved) => {
            toast.success(`${saved.name} updated`);
            onDone();
          },
          onError,
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: (saved) => {
          reset(toFormValues(undefined, defaultVat));
          toast.success(`${saved.name} added`);
          onDone();
        },
        onError,
      });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, server.onInvalid)} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>
        <ProductFormFields
          register={register}
          control={control}
          setValue={setValue}
          errors={errors}
          upload={upload}
          categories={categories.data ?? []}
        />
      </DialogBody>
      <FormMessage message={server.message} />
      <DialogFooter className={server.message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button
          type="submit"
          disabled={incomplete || mutation.isPending || upload.isPending}
          aria-busy={mutation.isPending}
        >
          {product ? "Update Product" : "Add Product"}
        </Button>
      </DialogFooter>
    </form>
  );
}
