import { Outlet, useLocation } from "react-router";
import { useDocumentTitle } from "../../lib/use-document-title.ts";
import { Toaster } from "../../ui/toaster.tsx";
import { TooltipProvider } from "../../ui/tooltip.tsx";
import { screenTitle } from "./nav-items.ts";

/** Providers every admin screen shares, kept out of the first chunk the shopper app also loads. */
export default function AdminRoot() {
  useDocumentTitle(screenTitle(useLocation().pathname));
  return (
    <TooltipProvider>
      <Outlet />
      <Toaster />
    </TooltipProvider>
  );
}
