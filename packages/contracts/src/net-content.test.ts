import { describe, expect, it } from "vitest";
import { comparisonPriceAnswer, netContentProblem } from "./net-content.ts";
import { productInputSchema, productUpdateSchema } from "./products.ts";

const base = { sku: "A-1", name: "Mjölk", price: 17.9 };
const firstMessage = (body: Record<string, unknown>) => {
  const r = productInputSchema.safeParse({ ...base, ...body });
  return r.success ? null : { path: r.error.issues[0]!.path.join("."), message: r.error.issues[0]!.message };
};

describe("a product's net content", () => {
  it("takes more than 0 up to 1,000,000 with three decimals, in one of the units, or nothing", () => {
    for (const unit of ["g", "kg", "ml", "l", "st"])
      expect(productInputSchema.parse({ ...base, net_content: 0.001, net_content_unit: unit })).toMatchObject({
        net_content: 0.001,
        net_content_unit: unit,
      });
    expect(productInputSchema.parse({ ...base, net_content: 1_000_000, net_content_unit: "g" }).net_content).toBe(
      1_000_000,
    );
    expect(productInputSchema.parse({ ...base, net_content: null, net_content_unit: null })).toMatchObject({
      net_content: null,
      net_content_unit: null,
    });
    expect(productUpdateSchema.parse({})).toEqual({});
  });

  it("refuses 0, less, more than 1,000,000, a fourth decimal, text and an unknown unit", () => {
    expect(firstMessage({ net_content: 0 })).toEqual({
      path: "net_content",
      message: "Net content must be more than 0",
    });
    expect(firstMessage({ net_content: -1 })?.message).toBe("Net content must be more than 0");
    expect(firstMessage({ net_content: 1_000_000.001 })?.message).toBe("Net content must be at most 1,000,000");
    expect(firstMessage({ net_content: 0.0005 })?.message).toBe("Net content allows at most 3 decimals");
    expect(firstMessage({ net_content: "1" })?.message).toBe("Net content must be a number");
    expect(firstMessage({ net_content_unit: "cl" })).toEqual({
      path: "net_content_unit",
      message: "net_content_unit must be one of g, kg, ml, l, st",
    });
  });

  it("needs both fields or neither, counting what an edited product already has", () => {
    expect(netContentProblem({ net_content: 500 })).toEqual({
      path: "net_content_unit",
      message: "net_content_unit is needed with net_content",
    });
    expect(netContentProblem({ net_content_unit: "g" })).toEqual({
      path: "net_content",
      message: "net_content is needed with net_content_unit",
    });
    expect(netContentProblem({ net_content: 500, net_content_unit: "g" })).toBeNull();
    expect(netContentProblem({})).toBeNull();
    const has = { net_content: 500, net_content_unit: "g" };
    expect(netContentProblem({ net_content: 600 }, has)).toBeNull();
    expect(netContentProblem({ net_content_unit: null }, has)?.path).toBe("net_content_unit");
    expect(netContentProblem({ net_content: null, net_content_unit: null }, has)).toBeNull();
  });

  it("gives the jämförpris in kronor", () => {
    expect(comparisonPriceAnswer(2495, 500, "g")).toEqual({ price: 49.9, unit: "kg" });
    expect(comparisonPriceAnswer(1290, 330, "ml")).toEqual({ price: 39.09, unit: "l" });
    expect(comparisonPriceAnswer(1290, null, null)).toBeNull();
  });
});
