import { describe, expect, it } from "vitest";
import { CAMPAIGN_MAX_DAYS, campaignDays, campaignInputSchema } from "./campaigns.ts";

const body = (starts_on: string, ends_on: string) => ({
  product_id: "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e",
  store_id: null,
  price: 19.9,
  starts_on,
  ends_on,
});
/** The first message at ends_on, or undefined when the body is taken. */
const endProblem = (starts_on: string, ends_on: string) =>
  campaignInputSchema.safeParse(body(starts_on, ends_on)).error?.issues.find((i) => i.path[0] === "ends_on")?.message;

describe("a campaign's days", () => {
  it("count the first and the last: one day, a month, a year and a leap year", () => {
    expect(campaignDays("2026-12-01", "2026-12-01")).toBe(1);
    expect(campaignDays("2026-12-01", "2026-12-31")).toBe(31);
    expect(campaignDays("2027-01-01", "2027-12-31")).toBe(365);
    expect(campaignDays("2028-01-01", "2028-12-31")).toBe(366);
    // Across the change to summer time the count stays whole.
    expect(campaignDays("2027-03-27", "2027-03-29")).toBe(3);
  });

  it("run forwards and at most 366 days", () => {
    expect(endProblem("2026-12-01", "2026-12-01")).toBeUndefined();
    expect(endProblem("2026-12-01", "2026-11-30")).toBe("ends_on cannot be before starts_on");
    expect(endProblem("2028-01-01", "2028-12-31")).toBeUndefined();
    expect(endProblem("2028-01-01", "2029-01-01")).toBe(`A campaign may run at most ${CAMPAIGN_MAX_DAYS} days`);
  });
});
