import type { VatRate } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { firstVatRateField, rateProblem, toFormValues, toVatRateInput, vatRateFieldOf } from "./vat-rate-form.ts";

const food: VatRate = {
  id: "r1",
  country: "SE",
  category: "food",
  rate: 6,
  valid_from: "2026-04-01",
  valid_to: "2027-12-31",
  updated_at: "2026-11-01T10:00:00Z",
};

describe("the VAT rate form's values", () => {
  it("start as a standard-rate period of the country on screen, with nothing else filled in", () => {
    expect(toFormValues(undefined, "NO")).toEqual({
      country: "NO",
      category: "standard",
      rate: "",
      valid_from: "",
      valid_to: "",
    });
  });

  it("hold the period being edited, whatever country is on screen", () => {
    expect(toFormValues(food, "NO")).toEqual({
      country: "SE",
      category: "food",
      rate: "6",
      valid_from: "2026-04-01",
      valid_to: "2027-12-31",
    });
    expect(toFormValues({ ...food, rate: 12.5, valid_to: null }, "SE")).toMatchObject({ rate: "12.5", valid_to: "" });
  });
});

describe("a typed rate", () => {
  it.each(["6", "0", "12.5", "12,5", " 25 ", "100"])("%j is sent", (text) => {
    expect(rateProblem(text)).toBeUndefined();
  });

  it("is asked for when empty", () => {
    expect(rateProblem("")).toBe("Enter the rate in percent");
    expect(rateProblem("   ")).toBe("Enter the rate in percent");
  });

  it.each(["six", "6 %", "-6", "6.", ".5", "1e2", "6.5.1"])("%j is not a number of percent", (text) => {
    expect(rateProblem(text)).toBe("The rate is a number of percent, e.g. 6 or 12.5");
  });
});

describe("the body sent", () => {
  it("reads a decimal comma as a point and an empty end as none", () => {
    expect(
      toVatRateInput({ country: "NO", category: "food", rate: " 12,5 ", valid_from: "2026-01-01", valid_to: "" }),
    ).toEqual({ country: "NO", category: "food", rate: 12.5, valid_from: "2026-01-01", valid_to: null });
  });

  it("keeps a known end", () => {
    expect(toVatRateInput(toFormValues(food, "SE"))).toEqual({
      country: "SE",
      category: "food",
      rate: 6,
      valid_from: "2026-04-01",
      valid_to: "2027-12-31",
    });
  });
});

describe("the server's problems", () => {
  it("sit on the field of the same name, and none on a path the form does not show", () => {
    expect(vatRateFieldOf("valid_to")).toBe("valid_to");
    expect(vatRateFieldOf("rate")).toBe("rate");
    expect(vatRateFieldOf("id")).toBeUndefined();
  });

  it("lead focus to the highest field in the dialog", () => {
    expect(firstVatRateField(["valid_to", "rate"])).toBe("rate");
    expect(firstVatRateField(["valid_to", "country"])).toBe("country");
    expect(firstVatRateField([])).toBeUndefined();
  });
});
