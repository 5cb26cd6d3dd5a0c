import { describe, expect, it } from "vitest";
import { formatSwedishOrganisationNumber, isValidSwedishOrganisationNumber } from "./organisation-number.ts";

describe("Swedish organisation numbers", () => {
  it.each(["556036-0793", "5560360793", "802481-5162", "212000-0142"])("accepts %s", (n) => {
    expect(isValidSwedishOrganisationNumber(n)).toBe(true);
  });
  it.each(["556036-0794", "55603607931", "556036 0793", "", "abcdef-ghij", "556036--0793"])("rejects %s", (n) => {
    expect(isValidSwedishOrganisationNumber(n)).toBe(false);
  });
  it("formats with the hyphen", () => {
    expect(formatSwedishOrganisationNumber("5560360793")).toBe("556036-0793");
    expect(formatSwedishOrganisationNumber(" 556036-0793 ")).toBe("556036-0793");
  });
});
