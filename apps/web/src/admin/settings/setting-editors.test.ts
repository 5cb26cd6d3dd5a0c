import { SETTING_DEFINITIONS, VAT_CATEGORIES, VAT_CATEGORY_LABELS } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { editorOf, inlineControlOf, isPercentSetting } from "./setting-editors.ts";
import { formatEntries, formatValueInline } from "./setting-format.ts";

describe("the default VAT category setting", () => {
  it("is chosen from the categories, by their names", () => {
    const editor = editorOf("product", "default_vat_category", "standard");
    expect(editor).toEqual({
      shape: "scalar",
      label: "Default VAT category",
      control: {
        kind: "select",
        numeric: false,
        options: VAT_CATEGORIES.map((value) => ({ value, label: VAT_CATEGORY_LABELS[value] })),
      },
    });
    // A scalar: edited in place in the list too.
    expect(inlineControlOf("product", "default_vat_category", "food")?.kind).toBe("select");
  });

  it("starts at standard", () => {
    expect(SETTING_DEFINITIONS.product.default_vat_category.value).toBe("standard");
  });

  it("reads by the category's name in the list, the history and the overrides", () => {
    expect(formatEntries("product", "default_vat_category", "food")).toEqual([
      { name: null, text: "Food (livsmedel, folköl)" },
    ]);
    expect(formatValueInline("product", "default_vat_category", "standard")).toBe("Standard");
    // A code the console does not know is shown as it is.
    expect(formatValueInline("product", "default_vat_category", "reduced")).toBe("reduced");
  });

  it("is not a percent, while the rates by country still are", () => {
    expect(isPercentSetting("product", "default_vat_category")).toBe(false);
    expect(isPercentSetting("product", "vat_rates_by_country")).toBe(true);
    expect(formatValueInline("product", "vat_rates_by_country", { SE: 0.25, FI: 0.255 })).toBe("SE: 25 %; FI: 25.5 %");
  });

  it("names only its own codes: other selects show their value", () => {
    expect(formatValueInline("product", "default_currency", "SEK")).toBe("SEK");
    expect(formatValueInline("store", "default_country", "SE")).toBe("SE");
  });

  it("leaves the old percent key to the plain editors", () => {
    expect(editorOf("product", "default_vat_rate", 0.25)).toEqual({
      shape: "scalar",
      label: "default_vat_rate",
      control: { kind: "number" },
    });
    expect(isPercentSetting("product", "default_vat_rate")).toBe(false);
  });
});
