import { lazy, Suspense, useEffect } from "react";
import { Route, Routes } from "react-router";
import { Spinner } from "./components/spinner.tsx";
import { ShopperErrorBoundary } from "./error-boundary.tsx";
import { LandingPage } from "./landing/landing-page.tsx";
import { applyShopperTheme, removeShopperTheme } from "./lib/theme.ts";
import { LoginPage } from "./login/login-page.tsx";
import { ShopperNotFoundPage } from "./not-found-page.tsx";
import { QrEntryPage } from "./qr-entry/qr-entry-page.tsx";
import { sv } from "./sv.ts";
import "./shopper.css";

// Shopping is its own chunk: the landing and sign-in pages load without it.
const ShopPage = lazy(() => import("./shop/shop-page.tsx"));
const ManualScanPage = lazy(() => import("./manual-scan/manual-scan-page.tsx"));
const ExitPage = lazy(() => import("./exit/exit-page.tsx"));
const CardPage = lazy(() => import("./card/card-page.tsx"));
const ReceiptsPage = lazy(() => import("./receipts/receipts-page.tsx"));

/**
 * The Swedish shopper app (spec: shopper-app.md), mounted at /customer/* by
 * its own page (customer.html, main.tsx) and, as a fallback, by the console's
 * router. The entry pages are one chunk: each leads straight to the next.
 */
export default function ShopperApp() {
  useEffect(() => {
    const previous = { lang: document.documentElement.lang, title: document.title };
    document.documentElement.lang = "sv";
    document.title = sv.brand;
    applyShopperTheme();
    return () => {
      document.documentElement.lang = previous.lang;
      document.title = previous.title;
      removeShopperTheme();
    };
  }, []);

  return (
    <div className="shopper min-h-svh">
      <ShopperErrorBoundary>
        <Suspense fallback={<Spinner label={sv.common.loading} className="min-h-svh" />}>
          <Routes>
            <Route index element={<LandingPage />} />
            <Route path="login" element={<LoginPage />} />
            <Route path="qr-entry" element={<QrEntryPage />} />
            <Route path="shop" element={<ShopPage />} />
            <Route path="manual-scan" element={<ManualScanPage />} />
            <Route path="exit" element={<ExitPage />} />
            <Route path="betalkort" element={<CardPage />} />
            <Route path="receipts" element={<ReceiptsPage />} />
            <Route path="receipts/:id" element={<ReceiptsPage />} />
            <Route path="*" element={<ShopperNotFoundPage />} />
          </Routes>
        </Suspense>
      </ShopperErrorBoundary>
    </div>
  );
}
