import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { applyShopperTheme } from "./lib/theme.ts";
import ShopperApp from "./shopper-app.tsx";

/*
 * The shopper app's own page (customer.html): React, the router and the
 * shopper pages only. No console code, TanStack Query, Radix or toasts, so
 * the first render of /customer/* stays within the 120 KB budget.
 */
applyShopperTheme();

const root = document.getElementById("root");
if (!root) throw new Error("customer.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <Routes>
        <Route path="/customer/*" element={<ShopperApp />} />
        <Route path="*" element={<Navigate to="/customer" replace />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
