import { STORE_LIMITS } from "@glide/contracts";
import type { ComponentProps } from "react";
import {
  type Control,
  Controller,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { TabsContent } from "../../ui/tabs.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import type { StoreFormValues } from "./store-form.ts";
import { type Option, useStoreOptions, withCurrent } from "./use-store-options.ts";

interface FieldsProps {
  register: UseFormRegister<StoreFormValues>;
  control: Control<StoreFormValues>;
  errors: FieldErrors<StoreFormValues>;
  setValue: UseFormSetValue<StoreFormValues>;
}

type SelectName = "store_type" | "country" | "timezone" | "language" | "currency";
type TextName = Exclude<keyof StoreFormValues, SelectName | "description">;

function SelectField(props: {
  label: string;
  name: SelectName;
  control: Control<StoreFormValues>;
  errors: FieldErrors<StoreFormValues>;
  options: Option[];
  placeholder?: string;
  /** Called after the value changes, e.g. a new country sets its time zone. */
  onPicked?: (value: string) => void;
}) {
  const { label, name, control, errors, options, placeholder, onPicked } = props;
  return (
    <Field label={label} error={errors[name]?.message}>
      {(id, aria) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select
              id={id}
              {...aria}
              {...field}
              onChange={(event) => {
                field.onChange(event);
                onPicked?.(event.target.value);
              }}
            >
              {placeholder ? (
                <option value="" disabled hidden>
                  {placeholder}
                </option>
              ) : null}
              {withCurrent(options, field.value).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        />
      )}
    </Field>
  );
}

/** The server's longest text for a field, when it has one. */
function textLimit(name: string): number | undefined {
  return name in STORE_LIMITS ? STORE_LIMITS[name as keyof typeof STORE_LIMITS] : undefined;
}

export function StoreFormFields({ register, control, errors, setValue }: FieldsProps) {
  const options = useStoreOptions();
  /** A text input with the server's length limit and its error beside it. */
  const text = (name: TextName, label: string, inputProps: ComponentProps<"input"> = {}, className?: string) => (
    <Field label={label} error={errors[name]?.message} className={className}>
      {(id, aria) => (
        <Input
          id={id}
          maxLength={inputProps.type === "number" ? undefined : textLimit(name)}
          {...aria}
          {...inputProps}
          {...register(name)}
        />
      )}
    </Field>
  );

  const onCountry = (country: string) => {
    const defaults = options.countryDefaults(country);
    if (defaults.timezone) setValue("timezone", defaults.timezone, { shouldDirty: true });
    if (defaults.currency) setValue("currency", defaults.currency, { shouldDirty: true });
  };

  return (
    <>
      <TabsContent value="basic" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Store Name *" error={errors.name?.message} className="sm:col-span-2">
          {(id, aria) => (
            <Input
              id={id}
              aria-required="true"
              maxLength={STORE_LIMITS.name}
              {...aria}
              {...register("name", { validate: (v) => v.trim() !== "" || "Store name is required" })}
            />
          )}
        </Field>
        {text("legal_name", "Legal Name")}
        {text("organization_number", "Organization Number", { placeholder: "e.g. 556036-0793" })}
        {text("vat_number", "VAT Number", { placeholder: "e.g. SE556036079301" })}
        <SelectField
          label="Store Type"
          name="store_type"
          control={control}
          errors={errors}
          options={options.types}
          placeholder="Select a type"
        />
        {text("size_sqm", "Size (sqm)", {
          type: "number",
          min: 0,
          max: STORE_LIMITS.size_sqm,
          step: 1,
          inputMode: "numeric",
        })}
        <Field label="Description" error={errors.description?.message} className="sm:col-span-2">
          {(id, aria) => (
            <Textarea id={id} maxLength={STORE_LIMITS.description} {...aria} {...register("description")} />
          )}
        </Field>
      </TabsContent>

      <TabsContent value="location" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {text("address", "Address", { autoComplete: "street-address" }, "sm:col-span-2")}
        {text("city", "City")}
        {text("postal_code", "Postal Code")}
        <SelectField
          label="Country"
          name="country"
          control={control}
          errors={errors}
          options={options.countries}
          onPicked={onCountry}
        />
        <SelectField label="Timezone" name="timezone" control={control} errors={errors} options={options.timezones} />
      </TabsContent>

      <TabsContent value="contact" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {text("phone", "Phone", { type: "tel" })}
        {text("email", "Email", { type: "email" })}
        {text("website", "Website", { type: "url", placeholder: "https://" }, "sm:col-span-2")}
        {text("contact_person", "Contact Person")}
        {text("contact_title", "Title")}
      </TabsContent>

      <TabsContent value="settings" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label="Language" name="language" control={control} errors={errors} options={options.languages} />
        <SelectField label="Currency" name="currency" control={control} errors={errors} options={options.currencies} />
        {text("vat_rate", "VAT Rate (%)", { type: "number", min: 0, max: 100, step: 0.01, inputMode: "decimal" })}
      </TabsContent>
    </>
  );
}
