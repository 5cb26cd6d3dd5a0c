import { SETTING_DEFINITIONS, SETTING_VALUE_SCHEMAS } from "@glide/contracts";
import { useMemo } from "react";
import { createDateFormatter, type DateFormatter } from "../../lib/date-format.ts";
import { effectiveValue, useEffectiveSettings } from "./use-settings.ts";

/** The built-in patterns, while the settings load (or if the stored value no longer fits). */
const BUILT_IN = SETTING_VALUE_SCHEMAS.ui.defaults.parse(SETTING_DEFINITIONS.ui.defaults.value);

/**
 * The one way the console prints dates and times: in the patterns of the
 * ui/defaults setting (its date_format and time_format), as the products
 * screen takes its page size and view from the same setting.
 */
export function useDateFormat(): DateFormatter {
  const effective = useEffectiveSettings();
  const defaults = effectiveValue(effective.data, "ui", "defaults");
  const date_format = defaults?.date_format ?? BUILT_IN.date_format;
  const time_format = defaults?.time_format ?? BUILT_IN.time_format;
  return useMemo(() => createDateFormatter({ date_format, time_format }), [date_format, time_format]);
}
