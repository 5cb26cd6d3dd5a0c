import { describe, expect, it } from "vitest";
import { lineRefundOre, orderIdParams, REFUND_REASON_MAX, refundCreateSchema } from "./refunds.ts";
import { keeps, messageAt } from "./testing.ts";

/** A line's refund in öre, and what a refund request may hold. */

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const key = "7d1f0c52-3a8e-4b6f-9c2d-5e4a3b2c1d0f";
/** The n-th of as many distinct UUIDs as a test needs. */
const nthUuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

describe("a line's refund in öre", () => {
  const line = { total_ore: 1000, quantity: 3, refunded_quantity: 0 };

  it("prices every unit but the last at the total divided by the quantity, rounded down", () => {
    expect(lineRefundOre(line, 1)).toBe(333);
    expect(lineRefundOre(line, 2)).toBe(666);
  });

  it("gives back exactly the line's total when every unit is refunded", () => {
    expect(lineRefundOre(line, 3)).toBe(1000);
  });

  it("lets the last unit take the remainder, so refunds one at a time add up to the total", () => {
    const one = [0, 1, 2].map((refunded_quantity) => lineRefundOre({ ...line, refunded_quantity }, 1));
    expect(one).toEqual([333, 333, 334]);
    expect(one.reduce((sum, ore) => sum + ore, 0)).toBe(1000);
  });

  it("prices what is left after an earlier refund from where that refund stopped", () => {
    expect(lineRefundOre({ ...line, refunded_quantity: 1 }, 2)).toBe(667);
    expect(lineRefundOre({ total_ore: 2599, quantity: 4, refunded_quantity: 2 }, 1)).toBe(649);
    expect(lineRefundOre({ total_ore: 2599, quantity: 4, refunded_quantity: 3 }, 1)).toBe(652);
  });

  it("gives back a weighed line of one unit whole", () => {
    expect(lineRefundOre({ total_ore: 4599, quantity: 1, refunded_quantity: 0 }, 1)).toBe(4599);
  });

  it("gives back nothing for no units and never more than the total", () => {
    expect(lineRefundOre(line, 0)).toBe(0);
    expect(lineRefundOre({ ...line, refunded_quantity: 3 }, 0)).toBe(0);
    expect(lineRefundOre({ ...line, refunded_quantity: 2 }, 5)).toBe(334);
  });
});

describe("a refund request", () => {
  const byLines = { idempotency_key: key, reason: "Trasig förpackning", lines: [{ line_id: uuid, quantity: 2 }] };
  const at = (input: Record<string, unknown>, path: string) =>
    messageAt(refundCreateSchema, { ...byLines, ...input }, path);

  it("takes some units of some lines, or everything, as sent", () => {
    keeps(refundCreateSchema, byLines);
    keeps(refundCreateSchema, { idempotency_key: key, reason: "Kunden ångrade sig", whole: true });
  });

  it("needs a reason, trimmed, of at most 500 characters", () => {
    expect(REFUND_REASON_MAX).toBe(500);
    expect(refundCreateSchema.parse({ ...byLines, reason: "  Trasig  " }).reason).toBe("Trasig");
    expect(refundCreateSchema.parse({ ...byLines, reason: ` ${"x".repeat(500)} ` }).reason).toHaveLength(500);
    expect(at({ reason: "x".repeat(501) }, "reason")).toBe("reason must be at most 500 characters");
    expect(at({ reason: "   " }, "reason")).toBe("reason is required");
    expect(at({ reason: "" }, "reason")).toBe("reason is required");
    expect(at({ reason: undefined }, "reason")).toBe("reason is required");
    expect(at({ reason: 5 }, "reason")).toBe("reason is required");
  });

  it("needs a UUID as its idempotency key", () => {
    expect(at({ idempotency_key: "abc" }, "idempotency_key")).toBe("idempotency_key must be a UUID");
    expect(at({ idempotency_key: undefined }, "idempotency_key")).toBe("idempotency_key must be a UUID");
  });

  it("names each line by its UUID", () => {
    expect(at({ lines: [{ line_id: "1", quantity: 1 }] }, "lines.0.line_id")).toBe("line_id must be a UUID");
  });

  it("asks for a whole number of units from 1 to 10,000 per line", () => {
    const quantity = (q: unknown) => ({ lines: [{ line_id: uuid, quantity: q }] });
    expect(at(quantity(0), "lines.0.quantity")).toBe("quantity must be at least 1");
    expect(at(quantity(1.5), "lines.0.quantity")).toBe("quantity must be a whole number");
    expect(refundCreateSchema.parse({ ...byLines, ...quantity(1) }).lines).toEqual([{ line_id: uuid, quantity: 1 }]);
    expect(refundCreateSchema.parse({ ...byLines, ...quantity(10_000) }).lines?.[0]?.quantity).toBe(10_000);
    expect(at(quantity(10_001), "lines.0.quantity")).toBeDefined();
  });

  it("names from 1 to 500 lines", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ line_id: nthUuid(i), quantity: 1 }));
    expect(at({ lines: [] }, "lines")).toBe("lines must name at least one line");
    expect(refundCreateSchema.parse({ ...byLines, lines: lines(500) }).lines).toHaveLength(500);
    expect(at({ lines: lines(501) }, "lines")).toBeDefined();
  });

  it("takes whole only as true", () => {
    const whole = { idempotency_key: key, reason: "r" };
    expect(messageAt(refundCreateSchema, { ...whole, whole: false }, "whole")).toBe("whole must be true");
    expect(messageAt(refundCreateSchema, { ...whole, whole: "true" }, "whole")).toBe("whole must be true");
  });

  it("gives either lines or whole: true, not both and not neither", () => {
    const neither = { idempotency_key: key, reason: "r" };
    expect(messageAt(refundCreateSchema, neither, "lines")).toBe("give either lines or whole: true");
    expect(at({ whole: true }, "lines")).toBe("give either lines or whole: true");
  });

  it("names each line once", () => {
    const twice = [
      { line_id: uuid, quantity: 1 },
      { line_id: uuid, quantity: 2 },
    ];
    expect(at({ lines: twice }, "lines")).toBe("each line may be named once");
    const two = [
      { line_id: uuid, quantity: 1 },
      { line_id: key, quantity: 2 },
    ];
    keeps(refundCreateSchema, { ...byLines, lines: two });
  });

  it("takes an order id that is a UUID", () => {
    keeps(orderIdParams, { id: uuid });
    expect(messageAt(orderIdParams, { id: "42" }, "id")).toBe("id must be a UUID");
  });
});
