import { CAMERA_LIMITS, type CameraSystem } from "@glide/contracts";
import type { ComponentProps } from "react";
import { type Control, type FieldErrors, type UseFormRegister, useWatch } from "react-hook-form";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { TabsContent } from "../../ui/tabs.tsx";
import { Textarea } from "../../ui/textarea.tsx";
import type { CameraOptions, Option } from "./camera-options.ts";
import { ConnectionTest } from "./connection-test.tsx";
import { SelectField } from "./form-controls.tsx";
import { clearsSavedPassword, type SystemFormValues } from "./system-form.ts";

interface SystemFormFieldsProps {
  register: UseFormRegister<SystemFormValues>;
  control: Control<SystemFormValues>;
  errors: FieldErrors<SystemFormValues>;
  options: CameraOptions;
  stores: Option[];
  /** The system being edited: its password state and the Test Connection button. */
  system?: CameraSystem;
  /** What the form holds now: Test Connection tries it. */
  values: () => SystemFormValues;
  onBrand: (brand: string) => void;
}

type TextName = "name" | "host" | "port" | "username" | "password" | "api_endpoint";

const required = (message: string) => ({ validate: (value: string) => value.trim() !== "" || message });

export function SystemFormFields(props: SystemFormFieldsProps) {
  const { register, control, errors, options, stores, system, values, onBrand } = props;
  const [connection_type, host, port, username, password] = useWatch({
    control,
    name: ["connection_type", "host", "port", "username", "password"],
  });
  const clears = clearsSavedPassword(system, { connection_type, host, port, username, password });
  const text = (
    name: TextName,
    label: string,
    input: ComponentProps<"input"> & { hint?: string; rule?: string } = {},
    className?: string,
  ) => {
    const { hint, rule, ...rest } = input;
    return (
      <Field label={label} error={errors[name]?.message} hint={hint} className={className}>
        {(id, aria) => (
          <Input
            id={id}
            aria-required={rule ? "true" : undefined}
            maxLength={rest.type === "number" ? undefined : CAMERA_LIMITS[name as keyof typeof CAMERA_LIMITS]}
            {...aria}
            {...rest}
            {...register(name, rule ? required(rule) : {})}
          />
        )}
      </Field>
    );
  };

  return (
    <>
      <TabsContent value="basic" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {text("name", "System Name *", { rule: "System name is required", autoComplete: "off" }, "sm:col-span-2")}
        <SelectField label="Type" name="type" control={control} error={errors.type?.message} options={options.types} />
        <SelectField
          label="Brand"
          name="brand"
          control={control}
          error={errors.brand?.message}
          options={options.brands}
          onPicked={onBrand}
          hint="Sets the brand's usual port"
        />
        <SelectField
          label="Status"
          name="status"
          control={control}
          error={errors.status?.message}
          options={options.statuses}
        />
      </TabsContent>

      <TabsContent value="connection" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Connection Type"
          name="connection_type"
          control={control}
          error={errors.connection_type?.message}
          options={options.connectionTypes}
          className="sm:col-span-2"
        />
        {text("host", "Host / IP Address *", {
          rule: "Host is required",
          placeholder: "192.168.1.100",
          autoComplete: "off",
          spellCheck: false,
          inputMode: "url",
        })}
        {text("port", "Port *", {
          rule: "Port must be a whole number from 1 to 65535",
          type: "number",
          placeholder: "554",
          min: 1,
          max: 65535,
          step: 1,
          inputMode: "numeric",
        })}
        {text("username", "Username", { autoComplete: "off", spellCheck: false })}
        {text("password", "Password", {
          type: "password",
          autoComplete: "new-password",
          hint: clears
            ? "Changing the address or user name clears the saved password unless you enter it again."
            : system?.has_password
              ? "A password is saved; leave empty to keep it"
              : undefined,
        })}
        {text(
          "api_endpoint",
          "API Endpoint (Optional)",
          { placeholder: "/onvif/device_service", autoComplete: "off", spellCheck: false },
          "sm:col-span-2",
        )}
        {system ? <ConnectionTest system={system} values={values} /> : null}
      </TabsContent>

      <TabsContent value="store" className="grid grid-cols-1 gap-4">
        <SelectField
          label="Store *"
          name="store_id"
          control={control}
          error={errors.store_id?.message}
          options={stores}
          placeholder="Select a store"
          required
        />
      </TabsContent>

      <TabsContent value="settings" className="grid grid-cols-1 gap-4">
        <Field label="Notes" error={errors.notes?.message}>
          {(id, aria) => <Textarea id={id} maxLength={CAMERA_LIMITS.notes} {...aria} {...register("notes")} />}
        </Field>
      </TabsContent>
    </>
  );
}
