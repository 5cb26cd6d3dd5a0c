import type { Setting } from "@glide/contracts";

/** "product/default_vat_rate · Default VAT rate (fraction)": which setting a dialog is about, inline. */
export function SettingTitle({ setting }: { setting: Pick<Setting, "category" | "key" | "description"> }) {
  return (
    <>
      <span className="font-mono break-all text-foreground">{`${setting.category}/${setting.key}`}</span>
      {setting.description ? ` · ${setting.description}` : null}
    </>
  );
}
