import { DATE_FORMATS, TIME_FORMATS } from "@glide/contracts";
import { describe, expect, it } from "vitest";
import { createDateFormatter } from "./date-format.ts";

// Built from local parts, so the test reads the same in any time zone the machine has.
const morning = new Date(2026, 10, 26, 9, 5, 7);
const evening = new Date(2026, 10, 26, 23, 26, 15);

describe("the console's dates follow ui/defaults", () => {
  it.each([
    ["YYYY-MM-DD", "2026-11-26", "11-26"],
    ["DD/MM/YYYY", "26/11/2026", "26/11"],
    ["MM/DD/YYYY", "11/26/2026", "11/26"],
    ["DD.MM.YYYY", "26.11.2026", "26.11"],
    ["D MMM YYYY", "26 Nov 2026", "26 Nov"],
  ] as const)("%s: an instant's day, a calendar day and an axis day", (date_format, full, short) => {
    const format = createDateFormatter({ date_format, time_format: "HH:mm" });
    expect(format.date(morning)).toBe(full);
    expect(format.date(morning.toISOString())).toBe(full);
    expect(format.day("2026-11-26")).toBe(full);
    expect(format.shortDay("2026-11-26")).toBe(short);
  });

  it("D MMM YYYY writes a single-digit day without a zero", () => {
    const format = createDateFormatter({ date_format: "D MMM YYYY", time_format: "HH:mm" });
    expect(format.day("2026-03-05")).toBe("5 Mar 2026");
  });

  it.each([
    ["HH:mm", "09:05", "23:26", "23:26:15", "14:00"],
    ["HH:mm:ss", "09:05:07", "23:26:15", "23:26:15", "14:00"],
    ["h:mm A", "9:05 AM", "11:26 PM", "11:26:15 PM", "2:00 PM"],
  ] as const)("%s: times, with seconds where asked, and hours of the day", (time_format, am, pm, seconds, hour) => {
    const format = createDateFormatter({ date_format: "YYYY-MM-DD", time_format });
    expect(format.time(morning)).toBe(am);
    expect(format.time(evening)).toBe(pm);
    expect(format.time(evening, { seconds: true })).toBe(seconds);
    expect(format.dateTime(evening)).toBe(`2026-11-26 ${pm}`);
    expect(format.hour(14)).toBe(hour);
  });

  it("midnight and noon on a 12-hour clock", () => {
    const format = createDateFormatter({ date_format: "YYYY-MM-DD", time_format: "h:mm A" });
    expect(format.hour(0)).toBe("12:00 AM");
    expect(format.hour(12)).toBe("12:00 PM");
  });

  it("an empty value is a dash; one that does not parse is shown as it came", () => {
    const format = createDateFormatter({ date_format: "DD.MM.YYYY", time_format: "HH:mm" });
    expect(format.dateTime(null)).toBe("—");
    expect(format.date("")).toBe("—");
    expect(format.dateTime("not a date")).toBe("not a date");
    expect(format.day("29 Oct")).toBe("29 Oct");
  });

  it("knows every pattern the setting allows", () => {
    for (const date_format of DATE_FORMATS) {
      for (const time_format of TIME_FORMATS) {
        const text = createDateFormatter({ date_format, time_format }).dateTime(evening);
        // Digits and separators only, besides the month's name and PM: no pattern letter left unreplaced.
        expect(text.replace(/Nov|PM/g, ""), `${date_format} ${time_format}`).toMatch(/^[\d\s/.:-]+$/);
      }
    }
  });
});
