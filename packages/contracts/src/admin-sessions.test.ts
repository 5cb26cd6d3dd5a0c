import { describe, expect, it } from "vitest";
import {
  SESSION_EVENT_SOURCES,
  SESSION_PAYMENT_STATES,
  SESSION_STATUSES,
  SESSIONS_COUNT_LIMIT,
  SESSIONS_PAGE_SIZE,
  sessionDetailSchema,
  sessionEventSchema,
  sessionEventSourceSchema,
  sessionIdParamsSchema,
  sessionListQuerySchema,
  sessionLiveEventSchema,
  sessionPaymentStateSchema,
  sessionRowSchema,
  sessionStatusSchema,
} from "./admin-sessions.ts";
import { keeps, messageAt } from "./testing.ts";

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

const query = (input: Record<string, unknown>) => sessionListQuerySchema.parse(input);
const queryMessage = (input: Record<string, unknown>, path: string) => messageAt(sessionListQuerySchema, input, path);

describe("session statuses, payment states and event sources", () => {
  it("knows the seven statuses a visit can have, and no other", () => {
    expect(SESSION_STATUSES).toEqual([
      "entered",
      "shopping",
      "checked_out",
      "abandoned",
      "left_unpaid",
      "written_off",
      "disputed",
    ]);
    for (const status of SESSION_STATUSES) expect(sessionStatusSchema.parse(status)).toBe(status);
    expect(sessionStatusSchema.safeParse("paid").success).toBe(false);
  });

  it("knows the seven payment states, from no order to refunded, and no other", () => {
    expect(SESSION_PAYMENT_STATES).toEqual([
      "none",
      "charging",
      "unsettled",
      "declined",
      "paid",
      "partly_refunded",
      "refunded",
    ]);
    for (const state of SESSION_PAYMENT_STATES) expect(sessionPaymentStateSchema.parse(state)).toBe(state);
    expect(sessionPaymentStateSchema.safeParse("open").success).toBe(false);
  });

  it("knows who or what can make a timeline event, and no other", () => {
    expect(SESSION_EVENT_SOURCES).toEqual(["phone", "camera_worker", "staff", "door", "exit_gate", "system"]);
    for (const source of SESSION_EVENT_SOURCES) expect(sessionEventSourceSchema.parse(source)).toBe(source);
    expect(sessionEventSourceSchema.safeParse("shopper").success).toBe(false);
  });
});

describe("the session list query", () => {
  it("shows 25 visits a page by default, from the first", () => {
    expect(SESSIONS_PAGE_SIZE).toEqual({ default: 25, max: 100 });
    expect(query({})).toEqual({ limit: 25, offset: 0 });
  });

  it("keeps every filter as sent", () => {
    const filters = {
      store_id: uuid,
      status: "abandoned",
      from: "2025-01-01",
      to: "2025-01-31T23:59:59.999Z",
      search: "Anna 50%_",
      limit: 10,
      offset: 20,
    };
    keeps(sessionListQuerySchema, filters);
  });

  it("filters by a store's UUID and by a status it names", () => {
    expect(queryMessage({ store_id: "s1" }, "store_id")).toBe("store_id must be a UUID");
    for (const status of SESSION_STATUSES) expect(query({ status }).status).toBe(status);
    expect(queryMessage({ status: "paid" }, "status")).toBe(
      "status must be one of entered, shopping, checked_out, abandoned, left_unpaid, written_off, disputed",
    );
  });

  it("takes a whole day as YYYY-MM-DD, trimmed, when it is a real calendar day", () => {
    expect(query({ from: " 2025-01-31 ", to: "2024-02-29" })).toMatchObject({ from: "2025-01-31", to: "2024-02-29" });
    const refused = "from must be a date (YYYY-MM-DD) or a date-time (ISO 8601)";
    for (const from of ["2025-02-30", "2025-02-29", "2025-13-01", "2025-00-10", "2025-1-31", "20250131", ""]) {
      expect(queryMessage({ from }, "from")).toBe(refused);
    }
  });

  it("takes an exact time as an ISO date-time, with or without an offset", () => {
    for (const to of ["2025-01-31T10:00:00Z", "2025-01-31T10:00:00.123+01:00", "2025-01-31T10:00"]) {
      expect(query({ to }).to).toBe(to);
    }
    expect(query({ from: " 2025-01-31T10:00:00Z\n" }).from).toBe("2025-01-31T10:00:00Z");
  });

  it("refuses other ways of writing a time, even ones JavaScript can read", () => {
    const refused = "to must be a date (YYYY-MM-DD) or a date-time (ISO 8601)";
    const others = [
      "2025-01-31T25:00:00Z",
      "2025-01-31 10:00",
      "January 31, 2025",
      "31 Jan 2025 10:00 GMT",
      "+002025-01-31T10:00:00Z",
      "2025-01-31x",
      "now",
    ];
    for (const to of others) expect(queryMessage({ to }, "to")).toBe(refused);
  });

  it("searches with at most 200 characters", () => {
    expect(query({ search: "x".repeat(200) }).search).toHaveLength(200);
    expect(queryMessage({ search: "x".repeat(201) }, "search")).toBe("search must be at most 200 characters");
  });

  it("reads the page size from the query string, 1 to 100", () => {
    expect(query({ limit: "1" }).limit).toBe(1);
    expect(query({ limit: "100" }).limit).toBe(100);
    expect(queryMessage({ limit: "0" }, "limit")).toBe("limit must be at least 1");
    expect(queryMessage({ limit: "101" }, "limit")).toBe("limit must be at most 100");
    expect(queryMessage({ limit: "1.5" }, "limit")).toBe("limit must be a whole number");
    expect(queryMessage({ limit: "ten" }, "limit")).toBe("limit must be a whole number");
  });

  it("pages no further than the count limit, and says to narrow the filters", () => {
    expect(SESSIONS_COUNT_LIMIT).toBe(10_000);
    expect(query({ offset: "0" }).offset).toBe(0);
    expect(query({ offset: "10000" }).offset).toBe(10_000);
    expect(queryMessage({ offset: "10001" }, "offset")).toBe(
      "offset must be at most 10000; narrow the filters to see older visits",
    );
    expect(queryMessage({ offset: "-1" }, "offset")).toBe("offset must be 0 or more");
    expect(queryMessage({ offset: "2.5" }, "offset")).toBe("offset must be a whole number");
    expect(queryMessage({ offset: "x" }, "offset")).toBe("offset must be a whole number");
  });

  it("takes a session id that is a UUID", () => {
    keeps(sessionIdParamsSchema, { id: uuid });
    expect(messageAt(sessionIdParamsSchema, { id: "s1" }, "id")).toBe("id must be a UUID");
  });
});

describe("session answers", () => {
  const row = {
    id: "s1",
    store: { id: "st1", name: "Butik" },
    status: "checked_out",
    shopper_name: "Anna Andersson",
    entered_at: "2025-03-01T10:00:00.000Z",
    exited_at: "2025-03-01T10:12:00.000Z",
    last_activity_at: "2025-03-01T10:11:00.000Z",
    abandoned_at: null,
    lines: 2,
    items: 3,
    total: 59.8,
    payment_state: "partly_refunded",
    refunded: 9.95,
    receipt_number: 1042,
    order_id: "o1",
    spot_check: "ok",
    dispute: "open",
  };
  const inside = {
    ...row,
    status: "shopping",
    shopper_name: null,
    exited_at: null,
    total: 0,
    payment_state: "none",
    refunded: 0,
    receipt_number: null,
    order_id: null,
    spot_check: null,
    dispute: null,
  };

  it("keeps every field of a row, money to the öre", () => {
    keeps(sessionRowSchema, row);
    keeps(sessionRowSchema, inside);
    keeps(sessionRowSchema, { ...inside, status: "abandoned", abandoned_at: "2025-03-01T14:00:00.000Z" });
  });

  it("keeps every field of a timeline event, by staff or not", () => {
    const event = {
      id: 7,
      kind: "refund",
      source: "staff",
      staff_email: "a@example.se",
      detail: { amount: 9.95, lines: ["l1"] },
      at: "2025-03-02T09:00:00.000Z",
    };
    keeps(sessionEventSchema, event);
    keeps(sessionEventSchema, { ...event, kind: "door_opened", source: "door", staff_email: null, detail: null });
  });

  it("keeps every field of a visit's detail: timeline, cart, order, refunds, disputes and spot check", () => {
    const detail = {
      ...row,
      timeline: [
        { id: 1, kind: "entered", source: "phone", staff_email: null, detail: null, at: "2025-03-01T10:00:00.000Z" },
      ],
      cart: [
        {
          id: "c1",
          product_id: "p1",
          name: "Ost",
          quantity: 1,
          unit_price: 49.9,
          ordinary_unit_price: null,
          total: 49.9,
          weight_grams: 450,
          pant: null,
        },
        {
          id: "c2",
          product_id: "p2",
          name: "Läsk",
          quantity: 2,
          unit_price: 4.95,
          ordinary_unit_price: 5.95,
          total: 9.9,
          weight_grams: null,
          pant: { unit: 2, total: 4 },
        },
      ],
      cart_discounts: [{ offer_id: "f2", label: "2 för 8 kr Läsk", times: 1, amount: 1.9 }],
      cart_vouchers: [{ code: "9801234500103", amount: 10 }],
      order: {
        id: "o1",
        state: "paid",
        receipt_number: 1042,
        total: 59.8,
        vat: 6.41,
        refunded: 9.95,
        paid_at: "2025-03-01T10:12:00.000Z",
        failure_code: null,
        card: { brand: "visa", last4: "4242" },
        lines: [
          {
            id: "l1",
            name: "Mjölk",
            quantity: 2,
            unit_price: 4.95,
            ordinary_unit_price: 5.95,
            total: 9.9,
            pant: { unit: 2, total: 4 },
            discount: 4.95,
            refunded_quantity: 1,
            refunded: 4.95,
            origin: "cart",
          },
        ],
        discounts: [{ offer_id: "f1", label: "3 för 2 Mjölk", times: 1, amount: 4.95 }],
        vouchers: [{ code: "9801234500240", amount: 24 }],
      },
      refunds: [
        {
          id: "r1",
          amount: 4.95,
          reason: "Trasig",
          state: "succeeded",
          source: "staff",
          staff_email: "a@example.se",
          created_at: "2025-03-02T09:00:00.000Z",
        },
      ],
      disputes: [
        {
          id: "d1",
          state: "resolved",
          message: "Fel pris",
          resolution: "Återbetalt",
          created_at: "2025-03-01T12:00:00.000Z",
          resolved_at: "2025-03-02T09:00:00.000Z",
        },
      ],
      spot_check_detail: {
        id: "k1",
        outcome: "ok",
        note: "Allt stämde",
        flagged_at: "2025-03-01T10:11:00.000Z",
        decided_at: "2025-03-01T10:13:00.000Z",
        staff_email: "a@example.se",
      },
    };
    keeps(sessionDetailSchema, detail);
    keeps(sessionDetailSchema, {
      ...inside,
      timeline: [],
      cart: [],
      cart_discounts: [],
      cart_vouchers: [],
      order: null,
      refunds: [],
      disputes: [],
      spot_check_detail: null,
    });
    keeps(sessionDetailSchema, {
      ...detail,
      order: { ...detail.order, receipt_number: null, paid_at: null, failure_code: "card_declined", card: null },
      refunds: [{ ...detail.refunds[0], staff_email: null }],
      disputes: [{ ...detail.disputes[0], state: "open", resolution: null, resolved_at: null }],
      spot_check_detail: {
        ...detail.spot_check_detail,
        outcome: null,
        note: null,
        decided_at: null,
        staff_email: null,
      },
    });
  });

  it("keeps every field of a live message, with or without a store", () => {
    keeps(sessionLiveEventSchema, { store_id: "st1", session_id: "s1", kind: "cart" });
    keeps(sessionLiveEventSchema, { store_id: null, session_id: "s1", kind: "exit" });
  });
});
