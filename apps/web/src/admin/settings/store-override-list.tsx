import { type CustomSettings, SETTING_CATEGORIES, type SettingCategory } from "@glide/contracts";
import { useId } from "react";
import { formatValueInline } from "./setting-format.ts";

const isCategory = (value: string): value is SettingCategory =>
  (SETTING_CATEGORIES as readonly string[]).includes(value);

/**
 * A store's overrides, read-only, so an operator sees in the store what
 * differs from the global settings; nothing when it has none. They are set on
 * the Settings screen.
 */
export function StoreOverrideList({ custom }: { custom: CustomSettings }) {
  const headingId = useId();
  const entries = Object.entries(custom).flatMap(([category, values]) =>
    Object.entries(values).map(([key, value]) => ({ category, key, value })),
  );
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-6 grid gap-2 border-t pt-4">
      <h3 id={headingId} className="text-sm font-semibold">
        Overrides
      </h3>
      <p className="text-xs text-muted-foreground">This store's own values, set under Settings.</p>
      <ul className="grid gap-1 text-sm">
        {entries.map(({ category, key, value }) => (
          <li key={`${category}/${key}`} className="break-words [overflow-wrap:anywhere]">
            <span className="font-mono">{`${category}/${key}`}</span>
            {" = "}
            {isCategory(category) ? formatValueInline(category, key, value) : JSON.stringify(value)}
          </li>
        ))}
      </ul>
    </section>
  );
}
