import type {
  AnalyticsRefundDay,
  AnalyticsRevenueStore,
  AnalyticsTable,
  AnalyticsTopCategory,
  AnalyticsTopProduct,
} from "@glide/contracts";
import clsx from "clsx";
import { type ReactNode, useId } from "react";
import { formatKronor } from "../../lib/format.ts";
import { CardContent, CardHeader, CardTitle } from "../../ui/card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../ui/table.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";
import { CsvLink } from "./csv-link.tsx";

const number = new Intl.NumberFormat("sv-SE");

/** A table column; `wide`: shown from the sm breakpoint up, so a phone's table fits without scrolling sideways. */
type Column<T> = { title: string; cell: (row: T) => ReactNode; numeric?: boolean; wide?: boolean };

const columnClass = (c: Column<never>, numeric: string) =>
  clsx(c.numeric && numeric, c.wide && "hidden sm:table-cell") || undefined;

/** A titled table card, with its own CSV download of the same figures when it has one. */
function TableCard<T>(props: {
  title: string;
  csv?: string;
  rows: T[];
  columns: Column<T>[];
  empty: string;
  rowKey: (row: T, i: number) => string;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border bg-card text-card-foreground shadow-xs">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle id={titleId}>{props.title}</CardTitle>
        {props.csv ? <CsvLink href={props.csv} title={props.title} /> : null}
      </CardHeader>
      <CardContent>
        {props.rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{props.empty}</p>
        ) : (
          <Table aria-labelledby={titleId}>
            <TableHeader>
              <TableRow>
                {props.columns.map((c) => (
                  <TableHead key={c.title} className={columnClass(c, "text-right")}>
                    {c.title}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {props.rows.map((row, i) => (
                <TableRow key={props.rowKey(row, i)}>
                  {props.columns.map((c) => (
                    <TableCell key={c.title} className={columnClass(c, "text-right tabular-nums")}>
                      {c.cell(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </section>
  );
}

type CsvOf = (table: AnalyticsTable) => string;

export function TopProductsTable({ rows, csv }: { rows: AnalyticsTopProduct[]; csv: CsvOf }) {
  return (
    <TableCard
      title="Top products"
      csv={csv("top-products")}
      rows={rows}
      empty="No products sold in this range."
      rowKey={(r, i) => r.product_id ?? `${r.name}-${i}`}
      columns={[
        { title: "Product", cell: (r) => r.name },
        { title: "Category", cell: (r) => r.category ?? "Uncategorised", wide: true },
        { title: "Sold", cell: (r) => number.format(r.quantity), numeric: true },
        { title: "Revenue", cell: (r) => formatKronor(r.revenue), numeric: true },
      ]}
    />
  );
}

export function TopCategoriesTable({ rows, csv }: { rows: AnalyticsTopCategory[]; csv: CsvOf }) {
  return (
    <TableCard
      title="Top categories"
      csv={csv("top-categories")}
      rows={rows}
      empty="No categories sold in this range."
      rowKey={(r) => r.category ?? ""}
      columns={[
        { title: "Category", cell: (r) => r.category ?? "Uncategorised" },
        { title: "Sold", cell: (r) => number.format(r.quantity), numeric: true },
        { title: "Revenue", cell: (r) => formatKronor(r.revenue), numeric: true },
      ]}
    />
  );
}

export function RefundsTable({ rows, csv }: { rows: AnalyticsRefundDay[]; csv: CsvOf }) {
  const dates = useDateFormat();
  return (
    <TableCard
      title="Refunds per day"
      csv={csv("refunds")}
      rows={rows}
      empty="No refunds in this range."
      rowKey={(r) => r.day}
      columns={[
        { title: "Day", cell: (r) => dates.day(r.day) },
        { title: "Refunds", cell: (r) => number.format(r.refunds), numeric: true },
        { title: "Amount", cell: (r) => formatKronor(r.amount), numeric: true },
      ]}
    />
  );
}

/** Each store's revenue over the range, best first; its days are in the revenue chart's CSV. */
export function RevenueByStoreTable({ rows }: { rows: AnalyticsRevenueStore[] }) {
  return (
    <TableCard
      title="Revenue per store"
      rows={rows}
      empty="No sales in this range."
      rowKey={(r) => r.store_id}
      columns={[
        { title: "Store", cell: (r) => r.store_name },
        { title: "Orders", cell: (r) => number.format(r.orders), numeric: true },
        { title: "VAT", cell: (r) => formatKronor(r.vat), numeric: true, wide: true },
        { title: "Revenue", cell: (r) => formatKronor(r.revenue), numeric: true },
      ]}
    />
  );
}
