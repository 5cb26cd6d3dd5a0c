import { describe, expect, it } from "vitest";
import { multiBuyDealText } from "./offers.ts";

describe("a multi-buy offer's deal in words", () => {
  it("is 'buy för buy − 1' for all but one paid, and the fixed price in Swedish kronor otherwise", () => {
    expect(multiBuyDealText({ kind: "one_free", buy: 3, amount: null })).toBe("3 för 2");
    expect(multiBuyDealText({ kind: "one_free", buy: 2, amount: null })).toBe("2 för 1");
    expect(multiBuyDealText({ kind: "amount", buy: 2, amount: 35 })).toBe("2 för 35,00 kr");
    expect(multiBuyDealText({ kind: "amount", buy: 4, amount: 99.9 })).toBe("4 för 99,90 kr");
  });
});
