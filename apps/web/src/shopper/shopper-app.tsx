import { useEffect } from "react";
import { Route, Routes } from "react-router";
import { ShopperErrorBoundary } from "./error-boundary.tsx";
import { LandingPage } from "./landing/landing-page.tsx";
import { applyShopperTheme, removeShopperTheme } from "./lib/theme.ts";
import { LoginPage } from "./login/login-page.tsx";
import { ShopperNotFoundPage } from "./not-found-page.tsx";
import { QrEntryPage } from "./qr-entry/qr-entry-page.tsx";
import { ShopPage } from "./shop/shop-page.tsx";
import { sv } from "./sv.ts";
import "./shopper.css";

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
        <Routes>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="qr-entry" element={<QrEntryPage />} />
          <Route path="shop" element={<ShopPage />} />
          <Route path="*" element={<ShopperNotFoundPage />} />
        </Routes>
      </ShopperErrorBoundary>
    </div>
  );
}
