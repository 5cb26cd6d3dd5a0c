import type { PriceCampaign } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import {
  campaignFieldOf,
  firstCampaignField,
  pickedOf,
  priceProblem,
  toCampaignInput,
  toFormValues,
} from "./campaign-form.ts";
import { mayChange } from "./dated-rule.ts";

const coffee: PriceCampaign = {
  id: "c1",
  product_id: "p1",
  sku: "KAF-500",
  product_name: "Kaffe 500 g",
  ordinary_price: 25,
  store_id: "s1",
  store_name: "Kampanjbutiken",
  price: 19.9,
  starts_on: "2026-12-01",
  ends_on: "2026-12-24",
  members_only: false,
  status: "upcoming",
};

describe("the campaign form's values", () => {
  it("start with no product, price or days, for everyone, in the store given (every store as '')", () => {
    expect(toFormValues(undefined, "")).toEqual({
      product_id: "",
      store_id: "",
      price: "",
      starts_on: "",
      ends_on: "",
      members_only: false,
    });
    expect(toFormValues(undefined, "s2").store_id).toBe("s2");
  });

  it("hold the campaign being edited, its price with two decimals and a chain-wide one as every store", () => {
    expect(toFormValues(coffee, "s2")).toEqual({
      product_id: "p1",
      store_id: "s1",
      price: "19.90",
      starts_on: "2026-12-01",
      ends_on: "2026-12-24",
      members_only: false,
    });
    expect(toFormValues({ ...coffee, store_id: null, store_name: null }, "s2").store_id).toBe("");
  });

  it("hold whether the campaign being edited is for members only, either way", () => {
    expect(toFormValues({ ...coffee, members_only: true }, "").members_only).toBe(true);
    expect(toFormValues(coffee, "").members_only).toBe(false);
  });

  it("show the edited campaign's product with its ordinary price, and none for a new one", () => {
    expect(pickedOf(coffee)).toEqual({ id: "p1", name: "Kaffe 500 g", sku: "KAF-500", price: 25 });
    expect(pickedOf(undefined)).toBeNull();
  });
});

describe("a typed price", () => {
  it.each(["19.90", "19,90", "0", " 7 ", "12.5", "1000"])("%j is sent", (text) => {
    expect(priceProblem(text)).toBeUndefined();
  });

  it("is asked for when empty", () => {
    expect(priceProblem("")).toBe("Enter the campaign price in kronor");
    expect(priceProblem("  ")).toBe("Enter the campaign price in kronor");
  });

  it.each(["nitton", "19.999", "-1", "19.", ".5", "1e2", "19 kr"])("%j is not kronor", (text) => {
    expect(priceProblem(text)).toBe("The price is a number of kronor, e.g. 19.90");
  });
});

describe("the body sent", () => {
  it("reads a decimal comma as a point and no store as every store", () => {
    expect(
      toCampaignInput({
        product_id: "p1",
        store_id: "",
        price: " 19,90 ",
        starts_on: "2026-12-01",
        ends_on: "2026-12-24",
        members_only: false,
      }),
    ).toEqual({
      product_id: "p1",
      store_id: null,
      price: 19.9,
      starts_on: "2026-12-01",
      ends_on: "2026-12-24",
      members_only: false,
    });
  });

  it("says whether the campaign is for members only, either way", () => {
    expect(toCampaignInput({ ...toFormValues(coffee, ""), members_only: true }).members_only).toBe(true);
    expect(
      toCampaignInput({ ...toFormValues({ ...coffee, members_only: true }, ""), members_only: false }),
    ).toMatchObject({
      members_only: false,
    });
  });

  it("keeps a store and sends the days as chosen, even backwards (the server says why not)", () => {
    expect(toCampaignInput({ ...toFormValues(coffee, ""), ends_on: "2026-11-30" })).toEqual({
      product_id: "p1",
      store_id: "s1",
      price: 19.9,
      starts_on: "2026-12-01",
      ends_on: "2026-11-30",
      members_only: false,
    });
  });
});

describe("the server's problems", () => {
  it("sit on the field of the same name, and none on a path the form does not show", () => {
    expect(campaignFieldOf("ends_on")).toBe("ends_on");
    expect(campaignFieldOf("price")).toBe("price");
    expect(campaignFieldOf("product_id")).toBe("product_id");
    expect(campaignFieldOf("members_only")).toBe("members_only");
    expect(campaignFieldOf("id")).toBeUndefined();
  });

  it("lead focus to the highest field in the dialog", () => {
    expect(firstCampaignField(["ends_on", "price"])).toBe("price");
    expect(firstCampaignField(["store_id", "product_id"])).toBe("product_id");
    expect(firstCampaignField([])).toBeUndefined();
  });
});

describe("who may change a campaign", () => {
  it("is every platform admin, and a store admin for their own stores' campaigns only", () => {
    expect(mayChange({ role: "platform_admin", store_ids: [] }, coffee)).toBe(true);
    expect(mayChange({ role: "platform_admin", store_ids: [] }, { ...coffee, store_id: null })).toBe(true);
    expect(mayChange({ role: "store_admin", store_ids: ["s1"] }, coffee)).toBe(true);
    expect(mayChange({ role: "store_admin", store_ids: ["s2"] }, coffee)).toBe(false);
    expect(mayChange({ role: "store_admin", store_ids: ["s1"] }, { ...coffee, store_id: null })).toBe(false);
  });
});
