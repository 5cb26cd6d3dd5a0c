import type { DashboardStats } from "@glide/contracts";
import { Camera, CreditCard, Package, Puzzle, Receipt, Store, TrendingUp, Users } from "lucide-react";
import { ApiError } from "../../lib/api.ts";
import { formatSek, humanize, pluralize } from "../../lib/format.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../ui/card.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { StatCard } from "./stat-card.tsx";
import { useDashboardStats } from "./use-dashboard.ts";

/** Spec §8: a non-OK answer, any other Error's message, or "Unknown error". */
function failureText(error: unknown): string {
  if (error instanceof ApiError) return "Failed to fetch dashboard stats";
  if (error instanceof Error) return error.message;
  return "Unknown error";
}

const number = new Intl.NumberFormat("sv-SE");

export default function DashboardPage() {
  const { data, error, isPending } = useDashboardStats();

  return (
    <div>
      <PageHeader title="Platform Dashboard" />
      {isPending ? <Spinner /> : error ? <ErrorAlert>{failureText(error)}</ErrorAlert> : <Stats stats={data} />}
    </div>
  );
}

function Stats({ stats }: { stats: DashboardStats }) {
  // A store admin's figure counts only the customers who have entered their stores.
  const usersDescription = useIsPlatformAdmin() ? "Registered customers" : "Customers who entered your stores";
  const modules = Object.entries(stats.active_modules)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          title="Total Stores"
          value={number.format(stats.total_stores)}
          description={`${stats.active_stores} active, ${stats.inactive_stores} inactive`}
          icon={Store}
        />
        <StatCard
          title="Products"
          value={number.format(stats.total_products)}
          description="In global database"
          icon={Package}
        />
        <StatCard
          title="Cameras"
          value={number.format(stats.total_cameras)}
          description={
            stats.cameras_offline > 0
              ? `Across all stores · ${number.format(stats.cameras_offline)} offline now`
              : "Across all stores"
          }
          icon={Camera}
        />
        <StatCard title="Users" value={number.format(stats.total_users)} description={usersDescription} icon={Users} />
        <StatCard
          title="Monthly Recurring Revenue"
          value={formatSek(stats.mrr)}
          description="From module subscriptions"
          icon={TrendingUp}
        />
        <StatCard
          title="Total Transactions"
          value={number.format(stats.total_transactions)}
          description="All-time transactions"
          icon={Receipt}
        />
        <StatCard
          title="Total Revenue"
          value={formatSek(stats.total_revenue)}
          description="All-time revenue"
          icon={CreditCard}
        />
      </div>
      {modules.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Puzzle aria-hidden="true" className="size-4 text-muted-foreground" />
              Active Modules
            </CardTitle>
            <CardDescription>Module usage across all stores</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {modules.map(([name, count]) => (
                <li key={name} className="flex items-center justify-between gap-4 py-2 text-sm">
                  <span>{humanize(name)}</span>
                  <span className="text-muted-foreground tabular-nums">{pluralize(count, "store", "stores")}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
