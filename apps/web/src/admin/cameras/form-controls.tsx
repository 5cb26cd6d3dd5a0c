import { useId } from "react";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { Field } from "../../ui/field.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { Switch } from "../../ui/switch.tsx";
import { type Option, withCurrent } from "./camera-options.ts";

interface SelectFieldProps<T extends FieldValues> {
  label: string;
  name: Path<T>;
  control: Control<T>;
  error: string | undefined;
  options: Option[];
  /** Shown, and not choosable, while nothing is chosen. */
  placeholder?: string;
  hint?: string;
  disabled?: boolean;
  required?: boolean;
  className?: string;
  /** Called after the person picks a value, e.g. a brand sets its port. */
  onPicked?: (value: string) => void;
}

/** A native select in a labelled field, its error beside it; a stored value the list lacks stays choosable. */
export function SelectField<T extends FieldValues>(props: SelectFieldProps<T>) {
  const { label, name, control, error, options, placeholder, hint, disabled, required, className, onPicked } = props;
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(id, aria) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select
              id={id}
              {...aria}
              aria-required={required ? "true" : undefined}
              name={field.name}
              ref={field.ref}
              value={field.value as string}
              onBlur={field.onBlur}
              disabled={disabled}
              onChange={(event) => {
                field.onChange(event.target.value);
                onPicked?.(event.target.value);
              }}
            >
              {placeholder ? (
                <option value="" disabled>
                  {placeholder}
                </option>
              ) : null}
              {withCurrent(options, field.value as string).map((option) => (
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

/** An on/off switch with its label beside it. */
export function SwitchField<T extends FieldValues>({
  label,
  name,
  control,
}: {
  label: string;
  name: Path<T>;
  control: Control<T>;
}) {
  const id = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-center gap-3">
          <Switch
            id={id}
            checked={field.value === true}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
          <Label htmlFor={id}>{label}</Label>
        </div>
      )}
    />
  );
}
