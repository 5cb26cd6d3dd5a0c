import type { Product } from "@glide/contracts";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { hasRequiredFields, type ProductFormValues, toFormValues, toProductInput } from "./product-form.ts";
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
    reset,
    formState: { errors },
  } = useForm<ProductFormValues>({ defaultValues: toFormValues(product) });
  const [sku, name, price] = useWatch({ control, name: ["sku", "name", "price"] });
  // Add Product waits for the three required fields; Update Product has no such rule.
  const incomplete = !product && !hasRequiredFields({ sku, name, price });

  const onValid = (values: ProductFormValues) => {
    const input = toProductInput(values);
    // Failures keep the dialog open with the server's detail in an alert.
    if (product) {
      update.mutate(
        { id: product.id, input },
        {
          onSuccess: (saved) => {
            toast.success(`${saved.name} updated`);
            onDone();
          },
        },
      );
    } else {
      create.mutate(input, {
        onSuccess: (saved) => {
          reset(toFormValues());
          toast.success(`${saved.name} added`);
          onDone();
        },
      });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className="flex min-h-0 flex-1 flex-col">
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
      {/* Outside the scrolling body, so it is seen however far down the form the button was pressed. */}
      {mutation.isError ? (
        <div className="border-t px-6 pt-3">
          <ErrorAlert>{errorMessage(mutation.error, failure)}</ErrorAlert>
        </div>
      ) : null}
      <DialogFooter className={mutation.isError ? "border-t-0" : undefined}>
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
