import { describe, expect, it } from "vitest";
import {
  checkoutResponseSchema,
  checkoutSchema,
  paymentMethodResponseSchema,
  paymentMethodSchema,
  receiptIdParams,
  receiptSchema,
  receiptSummarySchema,
} from "./checkout.ts";
import { keeps, message } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

const refund = {
  id: "r1",
  amount: 12.5,
  state: "succeeded",
  created_at: "2026-03-01T12:00:00.000Z",
  lines: [{ name: "Lingonsylt", quantity: 1, amount: 12.5 }],
};
const dispute = {
  id: "d1",
  state: "resolved",
  message: "Sylten drogs två gånger",
  resolution: "Vi har betalat tillbaka en burk",
  created_at: "2026-03-01T11:00:00.000Z",
  resolved_at: "2026-03-01T12:00:00.000Z",
};
const receipt = {
  id: "o1",
  number: 1042,
  store: { name: "Glide Umeå", legal_name: "Glide AB", organization_number: "556036-0793", address: null },
  paid_at: "2026-03-01T10:00:00.000Z",
  items: [
    {
      name: "Lingondricka",
      quantity: 2,
      unit_price: 12.5,
      ordinary_unit_price: 14.9,
      total: 25,
      vat_rate: 0.12,
      weight_grams: null,
      pant: { unit: 2, total: 4 },
    },
    {
      name: "Bananer",
      quantity: 1,
      unit_price: 24.9,
      ordinary_unit_price: null,
      total: 11.21,
      vat_rate: 0.12,
      weight_grams: 450,
      pant: null,
    },
  ],
  discounts: [{ offer_id: "f1", label: "3 för 2", times: 1, amount: 0.01 }],
  total: 36.21,
  vouchers: [{ code: "9801234500240", amount: 24 }],
  paid_by_card: 12.21,
  vat: [{ rate: 0.12, amount: 3.88, net: 32.33, gross: 36.21 }],
  currency: "SEK",
  payment: { brand: "visa", last4: "4242" },
  refunds: [refund],
  refunded: 12.5,
  refunded_vat: [{ rate: 0.12, amount: 1.34, net: 11.16, gross: 12.5 }],
  emailed: true,
  dispute,
};

describe("checkout", () => {
  it("names the shopper by id", () => {
    keeps(checkoutSchema, { user_id: uuid });
    expect(message(checkoutSchema, { user_id: "me" })).toBe("user_id must be a UUID");
    expect(message(checkoutSchema, {})).toBe("user_id must be a UUID");
  });

  it("answers with the whole receipt once paid", () => {
    keeps(checkoutResponseSchema, { status: "paid", receipt });
    keeps(receiptSchema, {
      ...receipt,
      payment: null,
      refunds: [],
      refunded: 0,
      refunded_vat: [],
      emailed: false,
      dispute: null,
    });
    keeps(receiptSchema, { ...receipt, refunds: [{ ...refund, state: "pending", lines: [] }] });
  });

  it("answers with no receipt when the cart was empty", () => {
    keeps(checkoutResponseSchema, { status: "empty", receipt: null });
    expect(checkoutResponseSchema.safeParse({ status: "failed", receipt: null }).success).toBe(false);
  });

  it("shows a refund only as pending or succeeded", () => {
    const refunded = (state: string) => receiptSchema.safeParse({ ...receipt, refunds: [{ ...refund, state }] });
    expect(refunded("failed").success).toBe(false);
  });
});

describe("payment method", () => {
  it("takes a PaymentMethod id, trimmed", () => {
    for (const payment_method of ["pm_card_visa", "pm_1AZaz09_", "pm_x", `pm_${"a".repeat(100)}`]) {
      keeps(paymentMethodSchema, { payment_method });
    }
    expect(paymentMethodSchema.parse({ payment_method: " pm_card_visa " })).toEqual({ payment_method: "pm_card_visa" });
  });

  it("refuses anything else with what it should be", () => {
    const refused = [
      "",
      "pm_",
      "card_visa",
      "xpm_card_visa",
      "pm_card-visa",
      "pm_card visa",
      "pm_card_visa!",
      `pm_${"a".repeat(101)}`,
    ];
    for (const payment_method of refused) {
      expect(message(paymentMethodSchema, { payment_method })).toBe("payment_method must be a PaymentMethod id (pm_…)");
    }
    expect(paymentMethodSchema.safeParse({ payment_method: 42 }).success).toBe(false);
  });

  it("answers with the saved card, or none", () => {
    keeps(paymentMethodResponseSchema, { card: { brand: "mastercard", last4: "4444" } });
    keeps(paymentMethodResponseSchema, { card: null });
  });
});

describe("receipt list and path", () => {
  it("keeps every field of a receipt in the list, and of its dispute only the state and the answer", () => {
    const summary = {
      id: "o1",
      number: 1042,
      store_name: "Glide Umeå",
      paid_at: "2026-03-01T10:00:00.000Z",
      total: 36.21,
      refunded: 12.5,
      refunds: [refund],
      dispute: { state: "open", resolution: null },
    };
    keeps(receiptSummarySchema, summary);
    keeps(receiptSummarySchema, { ...summary, refunds: [], refunded: 0, dispute: null });
    expect(receiptSummarySchema.parse({ ...summary, dispute })).toEqual({
      ...summary,
      dispute: { state: "resolved", resolution: "Vi har betalat tillbaka en burk" },
    });
  });

  it("checks the id in the path", () => {
    keeps(receiptIdParams, { id: uuid });
    expect(message(receiptIdParams, { id: "1042" })).toBe("id must be a UUID");
  });
});
