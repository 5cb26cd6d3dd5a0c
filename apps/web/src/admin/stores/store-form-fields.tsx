import { type Control, Controller, type FieldErrors, type UseFormRegister } from "react-hook-form";
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
}

type SelectName = "store_type" | "country" | "timezone" | "language" | "currency";

function SelectField(props: {
  label: string;
  name: SelectName;
  control: Control<StoreFormValues>;
  options: Option[];
  placeholder?: string;
}) {
  const { label, name, control, options, placeholder } = props;
  return (
    <Field label={label}>
      {(id) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select id={id} {...field}>
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

export function StoreFormFields({ register, control, errors }: FieldsProps) {
  const options = useStoreOptions();
  return (
    <>
      <TabsContent value="basic" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Store Name *" className="sm:col-span-2">
          {(id) => (
            <>
              <Input
                id={id}
                aria-required="true"
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? `${id}-error` : undefined}
                {...register("name", { validate: (v) => v.trim() !== "" || "Store name is required" })}
              />
              {errors.name ? (
                <p id={`${id}-error`} className="text-sm text-destructive">
                  {errors.name.message}
                </p>
              ) : null}
            </>
          )}
        </Field>
        <Field label="Legal Name">{(id) => <Input id={id} {...register("legal_name")} />}</Field>
        <Field label="Organization Number">
          {(id) => <Input id={id} placeholder="e.g. 556036-0793" {...register("organization_number")} />}
        </Field>
        <Field label="VAT Number">
          {(id) => <Input id={id} placeholder="e.g. SE556036079301" {...register("vat_number")} />}
        </Field>
        <SelectField
          label="Store Type"
          name="store_type"
          control={control}
          options={options.types}
          placeholder="Select a type"
        />
        <Field label="Size (sqm)">
          {(id) => <Input id={id} type="number" min={0} step={1} inputMode="numeric" {...register("size_sqm")} />}
        </Field>
        <Field label="Description" className="sm:col-span-2">
          {(id) => <Textarea id={id} {...register("description")} />}
        </Field>
      </TabsContent>

      <TabsContent value="location" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Address" className="sm:col-span-2">
          {(id) => <Input id={id} autoComplete="street-address" {...register("address")} />}
        </Field>
        <Field label="City">{(id) => <Input id={id} {...register("city")} />}</Field>
        <Field label="Postal Code">{(id) => <Input id={id} {...register("postal_code")} />}</Field>
        <SelectField label="Country" name="country" control={control} options={options.countries} />
        <SelectField label="Timezone" name="timezone" control={control} options={options.timezones} />
      </TabsContent>

      <TabsContent value="contact" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Phone">{(id) => <Input id={id} type="tel" {...register("phone")} />}</Field>
        <Field label="Email">{(id) => <Input id={id} type="email" {...register("email")} />}</Field>
        <Field label="Website" className="sm:col-span-2">
          {(id) => <Input id={id} type="url" placeholder="https://" {...register("website")} />}
        </Field>
        <Field label="Contact Person">{(id) => <Input id={id} {...register("contact_person")} />}</Field>
        <Field label="Title">{(id) => <Input id={id} {...register("contact_title")} />}</Field>
      </TabsContent>

      <TabsContent value="settings" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField label="Language" name="language" control={control} options={options.languages} />
        <SelectField label="Currency" name="currency" control={control} options={options.currencies} />
        <Field label="VAT Rate (%)">
          {(id) => <Input id={id} type="number" min={0} max={100} step={0.01} {...register("vat_rate")} />}
        </Field>
      </TabsContent>
    </>
  );
}
