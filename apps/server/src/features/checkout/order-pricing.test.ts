import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/errors.ts";
import { checkVouchers } from "./order-pricing.ts";

/** Vouchers pay part of an order, never all of it: a voucher is not paid out, so the card must pay something. */
describe("vouchers against the order's total", () => {
  const refusal = (total: number, vouchers: number) => {
    try {
      checkVouchers(total, vouchers);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return (err as AppError).code;
    }
  };

  it("refuses vouchers that pay the whole order, to the öre and beyond, and says both sums", () => {
    expect(refusal(4990, 4990)).toBe("vouchers_cover_cart");
    expect(refusal(4990, 5000)).toBe("vouchers_cover_cart");
    expect(() => checkVouchers(4990, 4990)).toThrow("Dina pantkvitton (49,90 kr) täcker hela köpet (49,90 kr)");
  });

  it("takes vouchers that leave an öre for the card, and an order without vouchers, even an empty one", () => {
    expect(refusal(4990, 4989)).toBeNull();
    expect(refusal(4990, 0)).toBeNull();
    expect(refusal(0, 0)).toBeNull();
  });
});
