import type { RefundableLine } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { cardLeftOre, refundOre } from "./refund-amount.ts";

const line = (fields: Partial<RefundableLine>): RefundableLine => ({
  id: "l1",
  name: "Bregott 500 g",
  quantity: 3,
  total_ore: 14970,
  refunded_quantity: 0,
  refunded_ore: 0,
  weight_grams: null,
  origin: "cart",
  ...fields,
});

describe("what is left on the card of an order pant vouchers paid part of", () => {
  it("is the checkout's lines less the vouchers less what was given back", () => {
    expect(cardLeftOre([line({})], 2400)).toBe(12570);
    expect(cardLeftOre([line({ refunded_quantity: 2, refunded_ore: 9980 })], 2400)).toBe(2590);
  });

  it("leaves out lines added at a spot check: their own charge paid them", () => {
    expect(cardLeftOre([line({}), line({ id: "l2", origin: "spot_check", total_ore: 1990 })], 2400)).toBe(12570);
  });
});

describe("what a refund gives back", () => {
  const butter = line({});

  it("with a voucher: no more than the card paid, and says so", () => {
    expect(refundOre([[butter, 3]], 2400)).toEqual({ ore: 12570, capped: true });
    const afterTwo = line({ refunded_quantity: 2, refunded_ore: 9980 });
    expect(refundOre([[afterTwo, 1]], 2400)).toEqual({ ore: 2590, capped: true });
  });

  it("with a voucher: within what the card paid, each unit's share as without one", () => {
    expect(refundOre([[butter, 2]], 2400)).toEqual({ ore: 9980, capped: false });
  });

  it("without a voucher: the lines' shares, the whole total", () => {
    expect(refundOre([[butter, 3]], 0)).toEqual({ ore: 14970, capped: false });
  });

  it("lines added at a spot check are given back on their own charge, beyond the checkout's cap", () => {
    const extra = line({ id: "l2", origin: "spot_check", quantity: 1, total_ore: 1990 });
    expect(
      refundOre(
        [
          [butter, 3],
          [extra, 1],
        ],
        2400,
      ),
    ).toEqual({ ore: 12570 + 1990, capped: true });
  });

  it("nothing asked gives nothing back", () => {
    expect(refundOre([[butter, 0]], 2400)).toEqual({ ore: 0, capped: false });
  });
});
