import { describe, expect, it } from "vitest";
import { cardBrandName } from "./card-brands.ts";

describe("cardBrandName", () => {
  it("writes the brands a shopper knows as they are written", () => {
    expect(cardBrandName("visa")).toBe("Visa");
    expect(cardBrandName("mastercard")).toBe("Mastercard");
    expect(cardBrandName("amex")).toBe("American Express");
    expect(cardBrandName("VISA")).toBe("Visa");
    expect(cardBrandName("jcb")).toBe("JCB");
  });

  it("capitalises a brand it does not know, and names no brand 'Kort'", () => {
    expect(cardBrandName("eftpos_au")).toBe("Eftpos au");
    expect(cardBrandName("link")).toBe("Link");
    expect(cardBrandName("unknown")).toBe("Kort");
    expect(cardBrandName("  ")).toBe("Kort");
  });
});
