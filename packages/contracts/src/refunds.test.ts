import { describe, expect, it } from "vitest";
import {
  DISPUTE_MESSAGE_MAX,
  DISPUTE_PAGE_SIZE,
  disputeCreateSchema,
  disputeIdParams,
  disputeListQuerySchema,
  disputeResolveSchema,
  disputeSchema,
  disputeStateSchema,
  lineRefundOre,
  orderIdParams,
  orderRefundsSchema,
  REFUND_REASON_MAX,
  RESOLUTION_MAX,
  receiptDisputeSchema,
  refundableLineSchema,
  refundCreateSchema,
  refundResultSchema,
  refundSchema,
  refundStateSchema,
  spotCheckDecisionSchema,
  spotCheckIdParams,
  spotCheckListQuerySchema,
  spotCheckOutcomeSchema,
  spotCheckSchema,
} from "./refunds.ts";
import { keeps, messageAt, type Schema } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const key = "7d1f0c52-3a8e-4b6f-9c2d-5e4a3b2c1d0f";
/** The n-th of as many distinct UUIDs as a test needs. */
const nthUuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

const refused = (schema: Schema, input: unknown) => schema.safeParse(input).success === false;

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

describe("refund answers", () => {
  const refund = {
    id: "r1",
    order_id: "o1",
    state: "succeeded",
    amount: 3.33,
    reason: "Trasig",
    source: "staff",
    failure_code: null,
    created_at: "2025-03-01T10:00:00.000Z",
    completed_at: "2025-03-01T10:00:01.000Z",
    lines: [{ line_id: "l1", name: "Mjölk", quantity: 1, amount: 3.33 }],
  };

  it("has the three refund states and no other", () => {
    for (const state of ["pending", "succeeded", "failed"]) expect(refundStateSchema.parse(state)).toBe(state);
    expect(refused(refundStateSchema, "refunded")).toBe(true);
  });

  it("keeps every field of a refund, amounts to the öre", () => {
    keeps(refundSchema, refund);
    keeps(refundSchema, { ...refund, state: "failed", failure_code: "card_declined", completed_at: null, lines: [] });
  });

  it("answers a refund request with the first refund and every refund it made, at least one", () => {
    const second = { ...refund, id: "r2", source: "spot_check", amount: 19.9 };
    keeps(refundResultSchema, { ...refund, refunds: [refund] });
    keeps(refundResultSchema, { ...refund, refunds: [refund, second] });
    expect(refused(refundResultSchema, { ...refund, refunds: [] })).toBe(true);
  });

  it("keeps every field of an order's refundable lines and refunds", () => {
    const line = {
      id: "l1",
      name: "Ost",
      quantity: 3,
      total_ore: 1000,
      refunded_quantity: 1,
      refunded_ore: 333,
      weight_grams: null,
      origin: "cart",
    };
    keeps(refundableLineSchema, line);
    keeps(refundableLineSchema, { ...line, weight_grams: 450, origin: "spot_check" });
    keeps(orderRefundsSchema, {
      order_id: "o1",
      store_id: "s1",
      receipt_number: 12,
      state: "partly_refunded",
      total: 10,
      refunded: 3.33,
      lines: [line],
      refunds: [refund],
    });
    keeps(orderRefundsSchema, {
      order_id: "o1",
      store_id: null,
      receipt_number: null,
      state: "paid",
      total: 0,
      refunded: 0,
      lines: [],
      refunds: [],
    });
  });
});

describe("disputes", () => {
  it("has the three dispute states and no other", () => {
    for (const state of ["open", "resolved", "rejected"]) expect(disputeStateSchema.parse(state)).toBe(state);
    expect(refused(disputeStateSchema, "closed")).toBe(true);
  });

  it("takes the shopper's message trimmed, and says in Swedish what is wrong", () => {
    expect(DISPUTE_MESSAGE_MAX).toBe(1000);
    keeps(disputeCreateSchema, { message: "Fel pris på mjölken" });
    expect(disputeCreateSchema.parse({ message: "  Fel pris  " })).toEqual({ message: "Fel pris" });
    expect(disputeCreateSchema.parse({ message: ` ${"x".repeat(1000)} ` }).message).toHaveLength(1000);
    expect(messageAt(disputeCreateSchema, { message: "x".repeat(1001) }, "message")).toBe("Högst 1000 tecken.");
    expect(messageAt(disputeCreateSchema, { message: "  " }, "message")).toBe("Beskriv vad som är fel.");
    expect(messageAt(disputeCreateSchema, { message: "" }, "message")).toBe("Beskriv vad som är fel.");
    expect(messageAt(disputeCreateSchema, {}, "message")).toBe("Beskriv vad som är fel.");
  });

  const receiptDispute = {
    id: "d1",
    state: "resolved",
    message: "Fel pris",
    resolution: "Vi har återbetalat 3,33 kr",
    created_at: "2025-03-01T10:00:00.000Z",
    resolved_at: "2025-03-02T10:00:00.000Z",
  };

  it("keeps every field of a dispute on the receipt and in the console", () => {
    keeps(receiptDisputeSchema, receiptDispute);
    keeps(receiptDisputeSchema, { ...receiptDispute, state: "open", resolution: null, resolved_at: null });
    const dispute = {
      ...receiptDispute,
      order_id: "o1",
      session_id: "s1",
      store_id: "st1",
      store_name: "Butik",
      receipt_number: 7,
      customer_name: "Anna Andersson",
      total: 10.5,
      refunded: 3.33,
    };
    keeps(disputeSchema, dispute);
    keeps(disputeSchema, { ...dispute, session_id: null, store_id: null, receipt_number: null, customer_name: null });
  });

  it("lists 50 disputes a page by default, from the first", () => {
    expect(DISPUTE_PAGE_SIZE).toEqual({ default: 50, max: 200 });
    expect(disputeListQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
  });

  it("reads the page from the query string, 1 to 200 disputes from offset 0 on", () => {
    expect(disputeListQuerySchema.parse({ limit: "1", offset: "0" })).toEqual({ limit: 1, offset: 0 });
    expect(disputeListQuerySchema.parse({ limit: "200", offset: "400" })).toEqual({ limit: 200, offset: 400 });
    expect(refused(disputeListQuerySchema, { limit: "0" })).toBe(true);
    expect(refused(disputeListQuerySchema, { limit: "201" })).toBe(true);
    expect(refused(disputeListQuerySchema, { limit: "1.5" })).toBe(true);
    expect(refused(disputeListQuerySchema, { offset: "-1" })).toBe(true);
    expect(refused(disputeListQuerySchema, { offset: "0.5" })).toBe(true);
  });

  it("filters by a store's UUID and a dispute state", () => {
    for (const state of ["open", "resolved", "rejected"]) {
      keeps(disputeListQuerySchema, { store_id: uuid, state, limit: 50, offset: 0 });
    }
    expect(messageAt(disputeListQuerySchema, { store_id: "s1" }, "store_id")).toBe("store_id must be a UUID");
    expect(refused(disputeListQuerySchema, { state: "closed" })).toBe(true);
  });

  it("resolves or rejects a dispute with a written resolution, trimmed, of at most 1000 characters", () => {
    expect(RESOLUTION_MAX).toBe(1000);
    keeps(disputeResolveSchema, { state: "resolved", resolution: "Återbetalt" });
    keeps(disputeResolveSchema, { state: "rejected", resolution: "Priset stämde" });
    const at = (input: Record<string, unknown>, path: string) =>
      messageAt(disputeResolveSchema, { state: "resolved", resolution: "r", ...input }, path);
    expect(at({ state: "open" }, "state")).toBe("state must be resolved or rejected");
    expect(at({ state: undefined }, "state")).toBe("state must be resolved or rejected");
    expect(disputeResolveSchema.parse({ state: "resolved", resolution: "  Klart  " }).resolution).toBe("Klart");
    const longest = disputeResolveSchema.parse({ state: "resolved", resolution: ` ${"x".repeat(1000)} ` });
    expect(longest.resolution).toHaveLength(1000);
    expect(at({ resolution: "x".repeat(1001) }, "resolution")).toBe("resolution must be at most 1000 characters");
    expect(at({ resolution: " " }, "resolution")).toBe("resolution is required");
    expect(at({ resolution: "" }, "resolution")).toBe("resolution is required");
    expect(at({ resolution: undefined }, "resolution")).toBe("resolution is required");
  });

  it("takes a dispute id that is a UUID", () => {
    keeps(disputeIdParams, { id: uuid });
    expect(messageAt(disputeIdParams, { id: "d1" }, "id")).toBe("id must be a UUID");
  });
});

describe("spot checks", () => {
  it("has the three outcomes and no other", () => {
    for (const outcome of ["ok", "items_added", "items_removed"]) {
      expect(spotCheckOutcomeSchema.parse(outcome)).toBe(outcome);
    }
    expect(refused(spotCheckOutcomeSchema, "missing")).toBe(true);
  });

  it("lists pending or decided checks, 50 a page by default", () => {
    expect(spotCheckListQuerySchema.parse({})).toEqual({ limit: 50, offset: 0 });
    keeps(spotCheckListQuerySchema, { store_id: uuid, state: "pending", limit: 1, offset: 0 });
    keeps(spotCheckListQuerySchema, { state: "decided", limit: 200, offset: 10 });
    expect(messageAt(spotCheckListQuerySchema, { state: "open" }, "state")).toBe("state must be pending or decided");
    expect(messageAt(spotCheckListQuerySchema, { store_id: "s1" }, "store_id")).toBe("store_id must be a UUID");
    expect(refused(spotCheckListQuerySchema, { limit: "201" })).toBe(true);
    expect(refused(spotCheckListQuerySchema, { limit: "0" })).toBe(true);
    expect(refused(spotCheckListQuerySchema, { offset: "-1" })).toBe(true);
  });

  describe("a decision", () => {
    const ok = { idempotency_key: key, outcome: "ok" };
    const at = (input: Record<string, unknown>, path: string) =>
      messageAt(spotCheckDecisionSchema, { ...ok, ...input }, path);
    const added = (quantity: number) => ({ product_id: uuid, quantity });
    const removed = (quantity: number) => ({ line_id: uuid, quantity });

    it("takes an outcome with what was added or removed, as sent", () => {
      keeps(spotCheckDecisionSchema, ok);
      keeps(spotCheckDecisionSchema, { ...ok, outcome: "items_added", note: "En ost", items_added: [added(2)] });
      keeps(spotCheckDecisionSchema, { ...ok, outcome: "items_removed", items_removed: [removed(1)] });
    });

    it("needs a UUID as its idempotency key and one of the outcomes", () => {
      expect(at({ idempotency_key: "k" }, "idempotency_key")).toBe("idempotency_key must be a UUID");
      expect(refused(spotCheckDecisionSchema, { ...ok, outcome: "fine" })).toBe(true);
    });

    it("takes a note trimmed, of at most 1000 characters", () => {
      expect(spotCheckDecisionSchema.parse({ ...ok, note: "  Allt ok  " }).note).toBe("Allt ok");
      expect(spotCheckDecisionSchema.parse({ ...ok, note: ` ${"x".repeat(1000)} ` }).note).toHaveLength(1000);
      expect(at({ note: "x".repeat(1001) }, "note")).toBe("note must be at most 1000 characters");
    });

    it("adds 1 to 100 units of each of at most 50 products, named by UUID", () => {
      const decide = (items_added: unknown) => ({ outcome: "items_added", items_added });
      expect(at(decide([{ product_id: "p", quantity: 1 }]), "items_added.0.product_id")).toBe(
        "product_id must be a UUID",
      );
      expect(at(decide([added(0)]), "items_added.0.quantity")).toBe("quantity must be at least 1");
      keeps(spotCheckDecisionSchema, { ...ok, ...decide([added(1)]) });
      keeps(spotCheckDecisionSchema, { ...ok, ...decide([added(100)]) });
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide([added(101)]) })).toBe(true);
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide([added(1.5)]) })).toBe(true);
      keeps(spotCheckDecisionSchema, { ...ok, ...decide(Array(50).fill(added(1))) });
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide(Array(51).fill(added(1))) })).toBe(true);
    });

    it("removes 1 to 10,000 units of each of at most 200 lines, named by UUID", () => {
      const decide = (items_removed: unknown) => ({ outcome: "items_removed", items_removed });
      expect(at(decide([{ line_id: "l", quantity: 1 }]), "items_removed.0.line_id")).toBe("line_id must be a UUID");
      expect(at(decide([removed(0)]), "items_removed.0.quantity")).toBe("quantity must be at least 1");
      keeps(spotCheckDecisionSchema, { ...ok, ...decide([removed(1)]) });
      keeps(spotCheckDecisionSchema, { ...ok, ...decide([removed(10_000)]) });
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide([removed(10_001)]) })).toBe(true);
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide([removed(2.5)]) })).toBe(true);
      keeps(spotCheckDecisionSchema, { ...ok, ...decide(Array(200).fill(removed(1))) });
      expect(refused(spotCheckDecisionSchema, { ...ok, ...decide(Array(201).fill(removed(1))) })).toBe(true);
    });

    it("names at least one product when items were added", () => {
      const message = "items_added must name at least one product";
      expect(at({ outcome: "items_added" }, "items_added")).toBe(message);
      expect(at({ outcome: "items_added", items_added: [] }, "items_added")).toBe(message);
      expect(at({ outcome: "items_added", items_removed: [removed(1)] }, "items_added")).toBe(message);
    });

    it("names at least one line when items were removed", () => {
      const message = "items_removed must name at least one line";
      expect(at({ outcome: "items_removed" }, "items_removed")).toBe(message);
      expect(at({ outcome: "items_removed", items_removed: [] }, "items_removed")).toBe(message);
      expect(at({ outcome: "items_removed", items_added: [added(1)] }, "items_removed")).toBe(message);
    });

    it("needs no items when the check was ok", () => {
      keeps(spotCheckDecisionSchema, { ...ok, items_added: [], items_removed: [] });
    });
  });

  it("keeps every field of a spot check, its charge and its lines", () => {
    const check = {
      id: "c1",
      session_id: "s1",
      order_id: "o1",
      store_id: "st1",
      store_name: "Butik",
      receipt_number: 3,
      customer_name: "Anna Andersson",
      flagged_at: "2025-03-01T10:00:00.000Z",
      outcome: "items_added",
      note: "En ost",
      decided_at: "2025-03-01T10:05:00.000Z",
      charge: { amount: 49.9, state: "paid", failure_code: null },
      refund_id: null,
      lines: [{ id: "l1", name: "Ost", quantity: 1, total: 49.9, refunded_quantity: 0, origin: "spot_check" }],
    };
    keeps(spotCheckSchema, check);
    for (const state of ["pending", "declined"]) {
      keeps(spotCheckSchema, { ...check, charge: { amount: 49.9, state, failure_code: "card_declined" } });
    }
    expect(refused(spotCheckSchema, { ...check, charge: { ...check.charge, state: "refunded" } })).toBe(true);
    const pending = {
      ...check,
      session_id: null,
      order_id: null,
      store_id: null,
      store_name: null,
      receipt_number: null,
      customer_name: null,
      outcome: null,
      note: null,
      decided_at: null,
      charge: null,
      refund_id: "r1",
      lines: [],
    };
    keeps(spotCheckSchema, pending);
  });

  it("takes a spot check id that is a UUID", () => {
    keeps(spotCheckIdParams, { id: uuid });
    expect(messageAt(spotCheckIdParams, { id: "c1" }, "id")).toBe("id must be a UUID");
  });
});
