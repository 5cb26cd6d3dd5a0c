import { describe, expect, it } from "vitest";
import { formatSwedishOrganisationNumber, isValidSwedishOrganisationNumber } from "./organisation-number.ts";

describe("Swedish organisation numbers", () => {
  // 590000-0000: a 9 in a place weighted 1 counts as 9, not 0.
  it.each(["556036-0793", "5560360793", "802481-5162", "212000-0142", "590000-0000"])("accepts %s", (n) => {
    expect(isValidSwedishOrganisationNumber(n)).toBe(true);
  });
  it.each(["556036-0794", "55603607931", "556036 0793", "", "abcdef-ghij", "556036--0793"])("rejects %s", (n) => {
    expect(isValidSwedishOrganisationNumber(n)).toBe(false);
  });
  it("formats with the hyphen", () => {
    expect(formatSwedishOrganisationNumber("5560360793")).toBe("556036-0793");
    expect(formatSwedishOrganisationNumber(" 556036-0793 ")).toBe("556036-0793");
  });
  it("leaves anything else as typed, trimmed", () => {
    expect(formatSwedishOrganisationNumber(" 556036 ")).toBe("556036");
    expect(formatSwedishOrganisationNumber("x5560360793")).toBe("x5560360793");
    expect(formatSwedishOrganisationNumber("5560360793x")).toBe("5560360793x");
  });
});
