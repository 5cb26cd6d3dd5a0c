import { lazy, Suspense } from "react";
import { createBrowserRouter, Outlet } from "react-router";
import { FullPageSpinner } from "../ui/spinner.tsx";
import { RouteErrorScreen } from "./error-boundary.tsx";
import { NotFoundPage } from "./not-found-page.tsx";

// Every screen is its own chunk: the shopper app under /customer never loads admin code.
const ShopperApp = lazy(() => import("../shopper/shopper-app.tsx"));
const AdminRoot = lazy(() => import("../admin/shell/admin-root.tsx"));
const LoginPage = lazy(() => import("../admin/auth/login-page.tsx"));
const AdminLayout = lazy(() => import("../admin/shell/admin-layout.tsx"));
const DashboardPage = lazy(() => import("../admin/dashboard/dashboard-page.tsx"));
const CamerasPage = lazy(() => import("../admin/cameras/cameras-page.tsx"));
const StoresPage = lazy(() => import("../admin/stores/stores-page.tsx"));
const ProductsPage = lazy(() => import("../admin/products/products-page.tsx"));
const PricingPage = lazy(() => import("../admin/pricing/pricing-page.tsx"));
const SessionsPage = lazy(() => import("../admin/sessions/sessions-page.tsx"));
const AnalyticsPage = lazy(() => import("../admin/analytics/analytics-page.tsx"));
const SettingsPage = lazy(() => import("../admin/settings/settings-page.tsx"));
const AuditPage = lazy(() => import("../admin/audit/audit-page.tsx"));

function RootLayout() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Outlet />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorScreen,
    children: [
      { path: "customer/*", Component: ShopperApp },
      {
        Component: AdminRoot,
        children: [
          { path: "login", Component: LoginPage },
          {
            Component: AdminLayout,
            children: [
              { index: true, Component: DashboardPage },
              { path: "cameras", Component: CamerasPage },
              { path: "stores", Component: StoresPage },
              { path: "products", Component: ProductsPage },
              { path: "pricing", Component: PricingPage },
              { path: "sessions", Component: SessionsPage },
              { path: "analytics", Component: AnalyticsPage },
              { path: "settings", Component: SettingsPage },
              { path: "audit", Component: AuditPage },
            ],
          },
          { path: "*", Component: NotFoundPage },
        ],
      },
    ],
  },
]);
