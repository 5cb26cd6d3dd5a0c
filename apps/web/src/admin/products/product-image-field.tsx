import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_TYPES, PRODUCT_LIMITS } from "@glide/contracts";
import { type ChangeEvent, useId, useState } from "react";
import { type Control, type UseFormRegister, type UseFormSetValue, useWatch } from "react-hook-form";
import { errorMessage } from "../../lib/api.ts";
import { controlClass, Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import type { ProductFormValues } from "./product-form.ts";
import { ProductImage, productImageSrc } from "./product-image.tsx";
import type { useUploadProductImage } from "./use-products.ts";

interface ProductImageFieldProps {
  register: UseFormRegister<ProductFormValues>;
  control: Control<ProductFormValues>;
  setValue: UseFormSetValue<ProductFormValues>;
  upload: ReturnType<typeof useUploadProductImage>;
  /** The server's reason the Image URL was refused. */
  error?: string | undefined;
}

const maxMegabytes = PRODUCT_IMAGE_MAX_BYTES / (1024 * 1024);

/** A photo uploads as soon as it is chosen; its address lands in Image URL, saved with the product. */
export function ProductImageField({ register, control, setValue, upload, error }: ProductImageFieldProps) {
  const fileId = useId();
  const urlId = useId();
  const urlErrorId = useId();
  const statusId = useId();
  const imageUrl = useWatch({ control, name: "image_url" });
  const [problem, setProblem] = useState<string | null>(null);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    // Checked here too so a wrong file is refused before it is sent.
    if (!(PRODUCT_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setProblem("Images must be JPEG, PNG or WebP");
    } else if (file.size > PRODUCT_IMAGE_MAX_BYTES) {
      setProblem(`Images may be at most ${maxMegabytes} MB`);
    } else {
      setProblem(null);
      upload.mutate(file, {
        // Only the latest choice's callbacks run, so a slower earlier upload cannot win.
        onSuccess: (url) => setValue("image_url", url, { shouldDirty: true }),
        onError: (error) => setProblem(errorMessage(error, "Failed to upload image")),
      });
    }
    // Let the same file be chosen again after a failure.
    input.value = "";
  };

  const src = productImageSrc(imageUrl);
  return (
    <div className="grid gap-3 sm:col-span-2">
      <div className="flex items-start gap-4">
        <ProductImage url={imageUrl} alt={src ? "Image preview" : ""} className="size-24 shrink-0 rounded-md border" />
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor={fileId}>Image</Label>
          <input
            id={fileId}
            type="file"
            accept={PRODUCT_IMAGE_TYPES.join(",")}
            aria-describedby={statusId}
            onChange={onFile}
            className={`${controlClass} py-2 file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-2 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground`}
          />
          <p id={statusId} aria-live="polite" className="text-xs text-muted-foreground">
            {upload.isPending ? "Uploading image..." : `JPEG, PNG or WebP, at most ${maxMegabytes} MB`}
          </p>
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={urlId}>Image URL</Label>
        <Input
          id={urlId}
          type="text"
          inputMode="url"
          placeholder="https://"
          maxLength={PRODUCT_LIMITS.image_url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? urlErrorId : undefined}
          {...register("image_url")}
        />
        {error ? (
          <p id={urlErrorId} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
