import { describe, expect, it } from "vitest";
import { amountProblem, pantAmountFieldOf, toFormValues, toPantAmountUpdate } from "./pant-amount-form.ts";
import { formatPantAmount } from "./pant-amounts.ts";

describe("the pant form", () => {
  it("opens with the mark's amount, or empty for a mark without one", () => {
    expect(toFormValues({ amount: 2 })).toEqual({ amount: "2" });
    expect(toFormValues({ amount: 2.5 })).toEqual({ amount: "2.5" });
    expect(toFormValues({ amount: null })).toEqual({ amount: "" });
  });

  it.each(["2", "0", "2.50", "2,5", " 3 ", "1000"])("sends %j", (text) => {
    expect(amountProblem(text)).toBeUndefined();
  });

  it.each([
    ["", "Enter the amount in kronor"],
    ["  ", "Enter the amount in kronor"],
    ["two", "The amount is a number of kronor, e.g. 2 or 2.50"],
    ["-1", "The amount is a number of kronor, e.g. 2 or 2.50"],
    ["2 kr", "The amount is a number of kronor, e.g. 2 or 2.50"],
  ])("does not send %j: %s", (text, problem) => {
    expect(amountProblem(text)).toBe(problem);
  });

  it("sends a decimal comma as a point, and shows the server's problem beside the amount", () => {
    expect(toPantAmountUpdate({ amount: " 2,50 " })).toEqual({ amount: 2.5 });
    expect(pantAmountFieldOf("amount")).toBe("amount");
    expect(pantAmountFieldOf("country")).toBeUndefined();
  });
});

describe("an amount on the list", () => {
  it("reads as the marks say it when whole, with öre otherwise", () => {
    expect(formatPantAmount(2)).toBe("2 kr");
    expect(formatPantAmount(2.5)).toBe("2.50 kr");
    expect(formatPantAmount(0.05)).toBe("0.05 kr");
    expect(formatPantAmount(1000)).toBe("1,000 kr");
  });
});
