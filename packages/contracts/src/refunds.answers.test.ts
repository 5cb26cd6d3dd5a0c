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
  orderRefundsSchema,
  RESOLUTION_MAX,
  receiptDisputeSchema,
  refundableLineSchema,
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

/** Refund answers, disputes and spot checks as the API tells them. */

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";
const key = "7d1f0c52-3a8e-4b6f-9c2d-5e4a3b2c1d0f";

const refused = (schema: Schema, input: unknown) => schema.safeParse(input).success === false;

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
