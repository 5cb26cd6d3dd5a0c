import type { AnalyticsSummary, AnalyticsTable } from "@glide/contracts";
import { Banknote, Percent, Receipt, RotateCcw, ShoppingBasket } from "lucide-react";
import { errorMessage } from "../../lib/api.ts";
import { formatKronor, formatPercent } from "../../lib/format.ts";
import { useDocumentTitle } from "../../lib/use-document-title.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { StatCard } from "../dashboard/stat-card.tsx";
import { PageHeader } from "../shell/page-header.tsx";
import { HoursChart, RevenueChart } from "./analytics-charts.tsx";
import { RefundsTable, RevenueByStoreTable, TopCategoriesTable, TopProductsTable } from "./analytics-tables.tsx";
import { AnalyticsToolbar } from "./analytics-toolbar.tsx";
import { CsvLink } from "./csv-link.tsx";
import { csvHref, useAnalytics, useAnalyticsParams } from "./use-analytics.ts";

const number = new Intl.NumberFormat("sv-SE");
const decimal = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 });

export default function AnalyticsPage() {
  useDocumentTitle("Analytics");
  const params = useAnalyticsParams();
  const scope = { from: params.from, to: params.to, storeId: params.storeId };
  const summary = useAnalytics("summary", scope);
  const revenue = useAnalytics("revenue", scope);
  const hours = useAnalytics("sessions-by-hour", scope);
  const products = useAnalytics("top-products", scope);
  const categories = useAnalytics("top-categories", scope);
  const refunds = useAnalytics("refunds", scope);
  const csv = (table: AnalyticsTable) => csvHref(table, scope);
  const failed = [summary, revenue, hours, products, categories, refunds].find((q) => q.error)?.error;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Analytics"
        description="Figures per store-local day; money in SEK incl. VAT unless shown apart."
      />
      <AnalyticsToolbar params={params} />
      {failed ? <ErrorAlert>{errorMessage(failed, "Failed to load analytics")}</ErrorAlert> : null}
      {summary.data ? <SummaryCards summary={summary.data} csv={csv("summary")} /> : <Spinner />}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        {revenue.data ? (
          <RevenueChart revenue={revenue.data} from={params.from} to={params.to} csv={csv("revenue")} />
        ) : null}
        {hours.data ? <HoursChart rows={hours.data} csv={csv("sessions-by-hour")} /> : null}
      </div>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        {revenue.data ? <RevenueByStoreTable rows={revenue.data.stores} /> : null}
        {products.data ? <TopProductsTable rows={products.data} csv={csv} /> : null}
        {categories.data ? <TopCategoriesTable rows={categories.data} csv={csv} /> : null}
        {refunds.data ? <RefundsTable rows={refunds.data} csv={csv} /> : null}
      </div>
    </div>
  );
}

function SummaryCards({ summary: s, csv }: { summary: AnalyticsSummary; csv: string }) {
  return (
    <section aria-labelledby="analytics-summary" className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="analytics-summary" className="text-lg font-semibold">
          Summary
        </h2>
        <CsvLink href={csv} title="Summary" />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard
          title="Revenue"
          value={formatKronor(s.revenue)}
          description={`VAT ${formatKronor(s.vat)} · excl. VAT ${formatKronor(s.revenue_excl_vat)}`}
          icon={Banknote}
        />
        <StatCard
          title="Net revenue"
          value={formatKronor(s.net_revenue)}
          description="Revenue less refunds"
          icon={Banknote}
        />
        <StatCard
          title="Orders"
          value={number.format(s.orders)}
          description={`${number.format(s.items)} items`}
          icon={Receipt}
        />
        <StatCard
          title="Conversion"
          value={s.conversion === null ? "–" : formatPercent(s.conversion)}
          description={`${number.format(s.orders)} purchases of ${number.format(s.entries)} entries`}
          icon={Percent}
        />
        <StatCard
          title="Average basket"
          value={s.average_basket === null ? "–" : formatKronor(s.average_basket)}
          description={s.average_items === null ? "No orders" : `${decimal.format(s.average_items)} items per order`}
          icon={ShoppingBasket}
        />
        <StatCard
          title="Refunds"
          value={formatKronor(s.refunded)}
          description={`${number.format(s.refunds)} ${s.refunds === 1 ? "refund" : "refunds"}`}
          icon={RotateCcw}
        />
      </div>
    </section>
  );
}
