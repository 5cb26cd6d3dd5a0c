import {
  AGE_LIMITS,
  NET_CONTENT_MAX,
  NET_CONTENT_UNITS,
  PANT_CODES,
  PRODUCT_LIMITS,
  VAT_CATEGORIES,
  VAT_CATEGORY_LABELS,
} from "@glide/contracts";
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
import { pantOptionLabel } from "./pant.ts";
import { NO_AGE_LIMIT, type ProductFormValues } from "./product-form.ts";
import { ProductImageField } from "./product-image-field.tsx";
import type { useUploadProductImage } from "./use-products.ts";

type TextName = Exclude<
  keyof ProductFormValues,
  "age_limit" | "is_active" | "image_url" | "description" | "vat_category" | "net_content_unit" | "pant_code"
>;

interface FieldsProps {
  register: UseFormRegister<ProductFormValues>;
  control: Control<ProductFormValues>;
  setValue: UseFormSetValue<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
  upload: ReturnType<typeof useUploadProductImage>;
  /** Existing categories, offered as suggestions; any new one may be typed. */
  categories: string[];
  /** The chosen VAT category's rate today ("6 % today"), when known. */
  vatHint?: string | undefined;
  /** The comparison price the price and net content give ("Comparison price 49.90 kr/kg"), once they do. */
  comparisonHint?: string | undefined;
}

const filled = (message: string) => (value: string) => value.trim() !== "" || message;

/** The server's longest text for a field, when it has one. */
function textLimit(name: string): number | undefined {
  return name in PRODUCT_LIMITS ? PRODUCT_LIMITS[name as keyof typeof PRODUCT_LIMITS] : undefined;
}

const decimal = (step: number, max: number) => ({ type: "number", min: 0, max, step, inputMode: "decimal" }) as const;

export function ProductFormFields(props: FieldsProps) {
  const { register, control, setValue, errors, upload, categories, vatHint, comparisonHint } = props;
  const categoryListId = useId();
  const activeId = useId();
  /** An input with the server's limit, its error beside it and, for the three required ones, the rule. */
  const field = (
    name: TextName,
    label: string,
    options: { input?: ComponentProps<"input">; required?: string; className?: string; hint?: string } = {},
  ) => (
    <Field label={label} error={errors[name]?.message} hint={options.hint} className={options.className}>
      {(id, aria) => (
        <Input
          id={id}
          aria-required={options.required ? "true" : undefined}
          maxLength={options.input?.type === "number" ? undefined : textLimit(name)}
          {...aria}
          {...options.input}
          {...register(name, options.required ? { validate: filled(options.required) } : {})}
        />
      )}
    </Field>
  );
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {field("sku", "SKU *", { required: "SKU is required", input: { autoComplete: "off", spellCheck: false } })}
      {field("name", "Name *", { required: "Name is required" })}
      <Field label="Description" error={errors.description?.message} className="sm:col-span-2">
        {(id, aria) => (
          <Textarea id={id} maxLength={PRODUCT_LIMITS.description} {...aria} {...register("description")} />
        )}
      </Field>
      <Field label="Category" error={errors.category?.message}>
        {(id, aria) => (
          <>
            <Input
              id={id}
              list={categoryListId}
              autoComplete="off"
              maxLength={PRODUCT_LIMITS.category}
              {...aria}
              {...register("category")}
            />
            <datalist id={categoryListId}>
              {categories.map((category) => (
                <option key={category} value={category} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      {field("brand", "Brand")}
      {field("price", "Price (kr) *", { required: "Price is required", input: decimal(0.01, PRODUCT_LIMITS.price) })}
      <Field label="VAT Category" error={errors.vat_category?.message} hint={vatHint}>
        {(id, aria) => (
          <Controller
            control={control}
            name="vat_category"
            render={({ field: select }) => (
              <Select id={id} {...aria} {...select}>
                {VAT_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {VAT_CATEGORY_LABELS[category]}
                  </option>
                ))}
              </Select>
            )}
          />
        )}
      </Field>
      {field("net_content", "Net content", {
        hint: comparisonHint,
        input: decimal(0.001, NET_CONTENT_MAX),
      })}
      <Field label="Unit" error={errors.net_content_unit?.message}>
        {(id, aria) => (
          <Controller
            control={control}
            name="net_content_unit"
            render={({ field: select }) => (
              <Select id={id} {...aria} {...select}>
                <option value="">None</option>
                {NET_CONTENT_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </Select>
            )}
          />
        )}
      </Field>
      <Field label="Pant" error={errors.pant_code?.message} className="sm:col-span-2">
        {(id, aria) => (
          <Controller
            control={control}
            name="pant_code"
            render={({ field: select }) => (
              <Select id={id} {...aria} {...select}>
                <option value="">None</option>
                {PANT_CODES.map((code) => (
                  <option key={code} value={code}>
                    {pantOptionLabel(code)}
                  </option>
                ))}
              </Select>
            )}
          />
        )}
      </Field>
      {field("barcode", "Barcode", {
        hint: "EAN-13, EAN-8, UPC-A, UPC-E or GTIN-14",
        className: "sm:col-span-2",
        input: { inputMode: "numeric", autoComplete: "off", spellCheck: false },
      })}
      <ProductImageField
        register={register}
        control={control}
        setValue={setValue}
        upload={upload}
        error={errors.image_url?.message}
      />
      {field("weight", "Weight (g)", { input: decimal(0.001, PRODUCT_LIMITS.measure) })}
      <Field label="Age limit" error={errors.age_limit?.message}>
        {(id, aria) => (
          <Controller
            control={control}
            name="age_limit"
            render={({ field: select }) => (
              <Select id={id} {...aria} {...select}>
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
      <div className="grid grid-cols-3 items-start gap-3 sm:col-span-2">
        {field("length", "Length (cm)", { input: decimal(0.1, PRODUCT_LIMITS.measure) })}
        {field("width", "Width (cm)", { input: decimal(0.1, PRODUCT_LIMITS.measure) })}
        {field("height", "Height (cm)", { input: decimal(0.1, PRODUCT_LIMITS.measure) })}
      </div>
      <Controller
        control={control}
        name="is_active"
        render={({ field: active }) => (
          <div className="flex items-center gap-3 sm:col-span-2">
            <Switch
              id={activeId}
              checked={active.value}
              onCheckedChange={active.onChange}
              onBlur={active.onBlur}
              ref={active.ref}
            />
            <Label htmlFor={activeId}>Active</Label>
          </div>
        )}
      />
    </div>
  );
}
