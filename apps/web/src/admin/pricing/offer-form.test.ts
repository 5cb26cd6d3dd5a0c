import type { MultiBuyOffer } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import {
  amountProblem,
  buyProblem,
  firstOfferField,
  limitProblem,
  offerFieldOf,
  productNames,
  toFormValues,
  toOfferInput,
  withProduct,
} from "./offer-form.ts";

const kaffe = { id: "p1", sku: "KAF-500", name: "Kaffe 500 g", price: 25 };
const te = { id: "p2", sku: "TE-100", name: "Te 100 g", price: 20 };

const breakfast: MultiBuyOffer = {
  id: "o1",
  label: "2 för 35",
  kind: "amount",
  buy: 2,
  amount: 35,
  products: [kaffe, te],
  store_id: "s1",
  store_name: "Erbjudandebutiken",
  starts_on: "2026-12-01",
  ends_on: "2026-12-24",
  limit_per_visit: 2,
  members_only: false,
  status: "upcoming",
};

describe("the offer form's values", () => {
  it("start as 3 för 2 without products, label or days, for everyone, in the store given (every store as '')", () => {
    expect(toFormValues(undefined, "")).toEqual({
      label: "",
      kind: "one_free",
      buy: "3",
      amount: "",
      products: [],
      store_id: "",
      starts_on: "",
      ends_on: "",
      limit_per_visit: "",
      members_only: false,
    });
    expect(toFormValues(undefined, "s2").store_id).toBe("s2");
  });

  it("hold the offer being edited, its amount with two decimals and a chain-wide one as every store", () => {
    expect(toFormValues(breakfast, "s2")).toEqual({
      label: "2 för 35",
      kind: "amount",
      buy: "2",
      amount: "35.00",
      products: [kaffe, te],
      store_id: "s1",
      starts_on: "2026-12-01",
      ends_on: "2026-12-24",
      limit_per_visit: "2",
      members_only: false,
    });
    const chainWide = toFormValues({ ...breakfast, store_id: null, limit_per_visit: null }, "s2");
    expect(chainWide).toMatchObject({ store_id: "", limit_per_visit: "" });
  });

  it("hold whether the offer being edited is for members only, either way", () => {
    expect(toFormValues({ ...breakfast, members_only: true }, "").members_only).toBe(true);
    expect(toFormValues(breakfast, "").members_only).toBe(false);
  });
});

describe("typed numbers", () => {
  it.each(["2", "20", " 3 "])("buy %j is sent", (text) => expect(buyProblem(text)).toBeUndefined());
  it.each(["1", "21", "2.5", "tre", "-3"])("buy %j is refused", (text) =>
    expect(buyProblem(text)).toBe("Buy is a whole number from 2 to 20"),
  );
  it("asks for buy when empty", () => expect(buyProblem(" ")).toBe("Enter how many units the deal takes"));

  it.each(["35", "35,50", "0", "34.9"])("amount %j is sent", (text) => expect(amountProblem(text)).toBeUndefined());
  it.each(["trettiofem", "35.999", "-1", "35 kr"])("amount %j is not kronor", (text) =>
    expect(amountProblem(text)).toBe("The price is a number of kronor, e.g. 35.00"),
  );
  it("asks for an amount when empty", () =>
    expect(amountProblem("")).toBe("Enter the price of the units together, in kronor"));

  it.each(["", "1", "99", " 5 "])("limit %j is sent", (text) => expect(limitProblem(text)).toBeUndefined());
  it.each(["0", "100", "1.5", "many"])("limit %j is refused", (text) =>
    expect(limitProblem(text)).toBe("The limit is a whole number from 1 to 99, or empty for none"),
  );
});

describe("the body sent", () => {
  it("sends a fixed price with a decimal comma read as a point, the product ids and the limit", () => {
    expect(toOfferInput({ ...toFormValues(breakfast, ""), label: " 2 för 35 ", amount: "34,50" })).toEqual({
      label: "2 för 35",
      kind: "amount",
      buy: 2,
      amount: 34.5,
      product_ids: ["p1", "p2"],
      store_id: "s1",
      starts_on: "2026-12-01",
      ends_on: "2026-12-24",
      limit_per_visit: 2,
      members_only: false,
    });
  });

  it("says whether the offer is for members only, either way", () => {
    expect(toOfferInput({ ...toFormValues(breakfast, ""), members_only: true }).members_only).toBe(true);
    expect(
      toOfferInput({ ...toFormValues({ ...breakfast, members_only: true }, ""), members_only: false }),
    ).toMatchObject({
      members_only: false,
    });
  });

  it("sends no amount for pay-for-all-but-one, whatever was typed, no store as every store and no limit as null", () => {
    const values = { ...toFormValues(breakfast, ""), kind: "one_free" as const, buy: "3", store_id: "" };
    expect(toOfferInput({ ...values, limit_per_visit: "" })).toMatchObject({
      kind: "one_free",
      buy: 3,
      amount: null,
      store_id: null,
      limit_per_visit: null,
    });
  });
});

describe("the products", () => {
  it("are added once each, in the order picked", () => {
    expect(withProduct([kaffe], te)).toEqual([kaffe, te]);
    expect(withProduct([kaffe, te], kaffe)).toEqual([kaffe, te]);
  });

  it("are named two at a time, with how many more there are", () => {
    expect(productNames([kaffe])).toBe("Kaffe 500 g");
    expect(productNames([kaffe, te])).toBe("Kaffe 500 g, Te 100 g");
    expect(productNames([kaffe, te, { name: "Mjölk" }, { name: "Ost" }])).toBe("Kaffe 500 g, Te 100 g +2 more");
  });
});

describe("the server's problems", () => {
  it("sit on the field of the same name, the product ids on the products, none on a path the form lacks", () => {
    expect(offerFieldOf("amount")).toBe("amount");
    expect(offerFieldOf("product_ids")).toBe("products");
    expect(offerFieldOf("product_ids.0")).toBe("products");
    expect(offerFieldOf("limit_per_visit")).toBe("limit_per_visit");
    expect(offerFieldOf("members_only")).toBe("members_only");
    expect(offerFieldOf("id")).toBeUndefined();
  });

  it("lead focus to the highest field in the dialog", () => {
    expect(firstOfferField(["ends_on", "amount"])).toBe("amount");
    expect(firstOfferField(["store_id", "products", "label"])).toBe("label");
    expect(firstOfferField([])).toBeUndefined();
  });
});
