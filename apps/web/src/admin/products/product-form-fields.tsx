import { AGE_LIMITS } from "@glide/contracts";
import { type ComponentProps, useId } from "react";
import {
  type Control,
  Controller,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { Switch } from "../../ui/switch.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import { NO_AGE_LIMIT, type ProductFormValues } from "./product-form.ts";
import { ProductImageField } from "./product-image-field.tsx";
import type { useUploadProductImage } from "./use-products.ts";

type RequiredName = "sku" | "name" | "price";

interface FieldsProps {
  register: UseFormRegister<ProductFormValues>;
  control: Control<ProductFormValues>;
  setValue: UseFormSetValue<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
  upload: ReturnType<typeof useUploadProductImage>;
  /** Existing categories, offered as suggestions; any new one may be typed. */
  categories: string[];
}

const filled = (message: string) => (value: string) => value.trim() !== "" || message;

function RequiredField(props: {
  label: string;
  name: RequiredName;
  message: string;
  register: UseFormRegister<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
  inputProps?: ComponentProps<"input">;
  className?: string;
}) {
  const { label, name, message, register, errors, inputProps, className } = props;
  const error = errors[name];
  return (
    <Field label={label} className={className}>
      {(id) => (
        <>
          <Input
            id={id}
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            {...inputProps}
            {...register(name, { validate: filled(message) })}
          />
          {error ? (
            <p id={`${id}-error`} className="text-sm text-destructive">
              {error.message}
            </p>
          ) : null}
        </>
      )}
    </Field>
  );
}

export function ProductFormFields({ register, control, setValue, errors, upload, categories }: FieldsProps) {
  const categoryListId = useId();
  const activeId = useId();
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <RequiredField
        label="SKU *"
        name="sku"
        message="SKU is required"
        register={register}
        errors={errors}
        inputProps={{ autoComplete: "off", spellCheck: false }}
      />
      <RequiredField label="Name *" name="name" message="Name is required" register={register} errors={errors} />
      <Field label="Description" className="sm:col-span-2">
        {(id) => <Textarea id={id} {...register("description")} />}
      </Field>
      <Field label="Category">
        {(id) => (
          <>
            <Input id={id} list={categoryListId} autoComplete="off" {...register("category")} />
            <datalist id={categoryListId}>
              {categories.map((category) => (
                <option key={category} value={category} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Brand">{(id) => <Input id={id} {...register("brand")} />}</Field>
      <RequiredField
        label="Price (kr) *"
        name="price"
        message="Price is required"
        register={register}
        errors={errors}
        inputProps={{ type: "number", min: 0, step: 0.01, inputMode: "decimal" }}
      />
      <Field label="VAT Rate (%)">
        {(id) => (
          <Input id={id} type="number" min={0} max={100} step={0.01} inputMode="decimal" {...register("vat_rate")} />
        )}
      </Field>
      <Field label="Barcode" hint="EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14" className="sm:col-span-2">
        {(id) => <Input id={id} inputMode="numeric" autoComplete="off" spellCheck={false} {...register("barcode")} />}
      </Field>
      <ProductImageField register={register} control={control} setValue={setValue} upload={upload} />
      <Field label="Weight (g)">
        {(id) => <Input id={id} type="number" min={0} step={0.001} inputMode="decimal" {...register("weight")} />}
      </Field>
      <Field label="Age limit">
        {(id) => (
          <Controller
            control={control}
            name="age_limit"
            render={({ field }) => (
              <Select id={id} {...field}>
                <option value={NO_AGE_LIMIT}>None</option>
                {AGE_LIMITS.map((limit) => (
                  <option key={limit} value={String(limit)}>
                    {limit}+
                  </option>
                ))}
              </Select>
            )}
          />
        )}
      </Field>
      <div className="grid grid-cols-3 gap-3 sm:col-span-2">
        <Field label="Length (cm)">
          {(id) => <Input id={id} type="number" min={0} step={0.1} inputMode="decimal" {...register("length")} />}
        </Field>
        <Field label="Width (cm)">
          {(id) => <Input id={id} type="number" min={0} step={0.1} inputMode="decimal" {...register("width")} />}
        </Field>
        <Field label="Height (cm)">
          {(id) => <Input id={id} type="number" min={0} step={0.1} inputMode="decimal" {...register("height")} />}
        </Field>
      </div>
      <Controller
        control={control}
        name="is_active"
        render={({ field }) => (
          <div className="flex items-center gap-3 sm:col-span-2">
            <Switch
              id={activeId}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
            <Label htmlFor={activeId}>Active</Label>
          </div>
        )}
      />
    </div>
  );
}
