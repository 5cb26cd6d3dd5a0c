import { Outlet } from "react-router";
import { Toaster } from "../../ui/toaster.tsx";
import { TooltipProvider } from "../../ui/tooltip.tsx";

/** Providers every admin screen shares, kept out of the first chunk the shopper app also loads. */
export default function AdminRoot() {
  return (
    <TooltipProvider>
      <Outlet />
      <Toaster />
    </TooltipProvider>
  );
}
