import clsx from "clsx";
import { Slider as SliderPrimitive } from "radix-ui";

interface SliderProps {
  value: number;
  onValueChange: (value: number) => void;
  min: number;
  max: number;
  step: number;
  /** The id of the visible label that names the slider. */
  labelledBy: string;
  /** What a screen reader says for the value, e.g. "25 %". */
  valueText: string;
  describedBy?: string | undefined;
  invalid?: boolean;
  disabled?: boolean;
  className?: string;
}

/**
 * One value on a track: a real slider (role, value text, label) that arrows,
 * Page Up/Down, Home and End move, as well as the pointer.
 */
export function Slider(props: SliderProps) {
  const { value, onValueChange, min, max, step, labelledBy, valueText, describedBy, invalid, disabled, className } =
    props;
  return (
    <SliderPrimitive.Root
      className={clsx("relative flex h-6 w-full touch-none items-center select-none", className)}
      value={[value]}
      onValueChange={([next]) => next !== undefined && onValueChange(next)}
      min={min}
      max={max}
      step={step}
      disabled={disabled}
    >
      <SliderPrimitive.Track className="relative h-2 grow overflow-hidden rounded-full bg-muted">
        <SliderPrimitive.Range className="absolute h-full bg-primary" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-labelledby={labelledBy}
        aria-valuetext={valueText}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className={clsx(
          "block size-5 rounded-full border-2 border-primary bg-card shadow transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
          "data-disabled:opacity-50 aria-invalid:border-destructive",
        )}
      />
    </SliderPrimitive.Root>
  );
}
