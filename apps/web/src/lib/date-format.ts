import type { DATE_FORMATS, TIME_FORMATS } from "@glide/contracts";

/** The console's date and time patterns, as the ui/defaults setting names them. */
export interface DateStyle {
  date_format: (typeof DATE_FORMATS)[number];
  time_format: (typeof TIME_FORMATS)[number];
}

interface Parts {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// Longest first, so "MMM" is not read as "MM" and "M", nor "DD" as two "D".
const TOKENS = /YYYY|MMM|MM|DD|D|HH|mm|ss|h|A/g;
const two = (n: number) => String(n).padStart(2, "0");

function render(pattern: string, p: Parts): string {
  return pattern.replace(TOKENS, (token) => {
    switch (token) {
      case "YYYY":
        return String(p.year);
      case "MMM":
        return MONTHS[p.month - 1] ?? "";
      case "MM":
        return two(p.month);
      case "DD":
        return two(p.day);
      case "D":
        return String(p.day);
      case "HH":
        return two(p.hour);
      case "mm":
        return two(p.minute);
      case "ss":
        return two(p.second);
      case "h":
        return String(p.hour % 12 || 12);
      default:
        return p.hour < 12 ? "AM" : "PM";
    }
  });
}

/** An instant's parts in the admin's own time zone (the browser's). */
function localParts(date: Date): Parts {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day ("2026-10-29") as parts, with no time zone: a store's day stays that day everywhere. */
function dayParts(day: string): Parts | null {
  const match = DAY.exec(day);
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0 };
}

type Instant = string | Date | null | undefined;

export interface DateFormatter {
  /** An instant's day: "2026-11-26", "26 Nov 2026"... */
  date(value: Instant): string;
  /** An instant's day and time: "2026-11-26 11:26", "26.11.2026 11:26 AM"... */
  dateTime(value: Instant, options?: { seconds?: boolean }): string;
  /** An instant's time of day: "11:26", "11:26 AM"; with seconds where events come seconds apart. */
  time(value: Instant, options?: { seconds?: boolean }): string;
  /** A calendar day given as YYYY-MM-DD (analytics' store days), in the chosen pattern. */
  day(day: string): string;
  /** The same without the year, for a chart's axis: "10-29", "29/10", "29 Oct". */
  shortDay(day: string): string;
  /** An hour of the day (0 to 23) on the hour: "14:00", "2:00 PM". */
  hour(hour: number): string;
}

/**
 * Every date and time the console prints, in the patterns of the ui/defaults
 * setting. Instants are shown in the admin's own time zone; an empty value is a
 * dash and one that does not parse is shown as it came.
 */
export function createDateFormatter(style: DateStyle): DateFormatter {
  const timeWithSeconds = style.time_format.includes("ss")
    ? style.time_format
    : style.time_format.replace("mm", "mm:ss");
  const timeOnly = style.time_format.replace(":ss", "");
  const shortDay = style.date_format.replace(/^YYYY\W|\W?YYYY$/, "");
  const instant = (value: Instant, pattern: string) => {
    if (value === null || value === undefined || value === "") return "—";
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) return String(value);
    return render(pattern, localParts(date));
  };
  const calendar = (day: string, pattern: string) => {
    const parts = dayParts(day);
    return parts ? render(pattern, parts) : day;
  };
  const timeOf = (seconds: boolean | undefined) => (seconds ? timeWithSeconds : style.time_format);
  return {
    date: (value) => instant(value, style.date_format),
    dateTime: (value, options) => instant(value, `${style.date_format} ${timeOf(options?.seconds)}`),
    time: (value, options) => instant(value, timeOf(options?.seconds)),
    day: (day) => calendar(day, style.date_format),
    shortDay: (day) => calendar(day, shortDay),
    hour: (hour) => render(timeOnly, { year: 0, month: 1, day: 1, hour, minute: 0, second: 0 }),
  };
}
