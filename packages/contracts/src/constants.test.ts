import { describe, expect, it } from "vitest";
import { CURRENCIES_BY_COUNTRY } from "./constants.ts";

describe("currencies by country (admin-console.md §9)", () => {
  it("gives each country its currency, symbol and where the symbol goes", () => {
    expect(CURRENCIES_BY_COUNTRY).toEqual({
      SE: { code: "SEK", symbol: "kr", position: "after" },
      NO: { code: "NOK", symbol: "kr", position: "after" },
      DK: { code: "DKK", symbol: "kr", position: "after" },
      FI: { code: "EUR", symbol: "€", position: "after" },
      DE: { code: "EUR", symbol: "€", position: "after" },
      FR: { code: "EUR", symbol: "€", position: "after" },
      UK: { code: "GBP", symbol: "£", position: "before" },
      US: { code: "USD", symbol: "$", position: "before" },
    });
  });
});
