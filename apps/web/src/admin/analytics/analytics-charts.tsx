import type { AnalyticsHour, AnalyticsRevenue } from "@glide/contracts";
import { useId } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatKronor, formatWhole, pluralize } from "../../lib/format.ts";
import { CardContent, CardDescription, CardHeader, CardTitle } from "../../ui/card.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { CsvLink } from "./csv-link.tsx";

const COLOURS = ["#2563eb", "#16a34a"];

/**
 * A titled chart card with the CSV of its figures; the chart is a picture,
 * its numbers are in the summary read out with it.
 */
function ChartCard(props: { title: string; summary: string; csv: string; children: React.ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border bg-card text-card-foreground shadow-xs">
      <CardHeader className="flex-row items-start justify-between gap-2">
        <div className="grid gap-1.5">
          <CardTitle id={titleId}>{props.title}</CardTitle>
          <CardDescription>{props.summary}</CardDescription>
        </div>
        <CsvLink href={props.csv} title={props.title} />
      </CardHeader>
      <CardContent>
        <div role="img" aria-label={`${props.title}: ${props.summary}`} className="h-64 w-full">
          {props.children}
        </div>
      </CardContent>
    </section>
  );
}

/** Every day of the range, so a day without sales shows as zero rather than missing. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Revenue per day, the stores in view summed: one bar a day reads at a glance
 * for a week or a year, where a line per store did not past a few stores.
 * Each store's share is in the table beside it; a store's days, in the CSV.
 */
export function RevenueChart(props: { revenue: AnalyticsRevenue; from: string; to: string; csv: string }) {
  const { days, stores } = props.revenue;
  const dates = useDateFormat();
  const byDay = new Map(days.map((d) => [d.day, d.revenue]));
  const data = daysBetween(props.from, props.to).map((day) => ({ day, revenue: byDay.get(day) ?? 0 }));
  const total = days.reduce((sum, d) => sum + d.revenue, 0);
  const best = days.reduce<(typeof days)[number] | null>((top, d) => (top && top.revenue >= d.revenue ? top : d), null);
  const storeCount = `${stores.length} ${stores.length === 1 ? "store" : "stores"}`;
  const summary = best
    ? `${formatKronor(total)} from ${storeCount}; best day ${dates.day(best.day)} (${formatKronor(best.revenue)}).`
    : "No sales in this range.";
  return (
    <ChartCard title="Revenue per day" summary={summary} csv={props.csv}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: 8, right: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" fontSize={12} tickFormatter={(day: string) => dates.shortDay(day)} />
          <YAxis fontSize={12} width={72} tickFormatter={(v: number) => formatWhole(v)} />
          <Tooltip formatter={(v) => formatKronor(Number(v))} labelFormatter={(day) => dates.day(String(day))} />
          <Bar dataKey="revenue" name="Revenue" fill={COLOURS[0]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** Entries and purchases per hour of day, side by side. */
export function HoursChart({ rows, csv }: { rows: AnalyticsHour[]; csv: string }) {
  const dates = useDateFormat();
  const busiest = rows.reduce<AnalyticsHour | null>((top, r) => (top && top.entries >= r.entries ? top : r), null);
  const entries = rows.reduce((sum, r) => sum + r.entries, 0);
  const purchases = rows.reduce((sum, r) => sum + r.purchases, 0);
  const summary =
    entries + purchases === 0
      ? "No visits in this range."
      : `${pluralize(entries, "entry", "entries")} and ${pluralize(purchases, "purchase", "purchases")}; busiest hour ${dates.hour(busiest?.hour ?? 0)} (${pluralize(busiest?.entries ?? 0, "entry", "entries")}).`;
  return (
    <ChartCard title="Sessions per hour of day" summary={summary} csv={csv}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows.map((r) => ({ ...r, label: dates.hour(r.hour) }))} margin={{ left: 8, right: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" fontSize={12} />
          <YAxis fontSize={12} allowDecimals={false} width={48} tickFormatter={(v: number) => formatWhole(v)} />
          <Tooltip />
          <Legend />
          <Bar dataKey="entries" name="Entries" fill={COLOURS[0]} />
          <Bar dataKey="purchases" name="Purchases" fill={COLOURS[1]} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
