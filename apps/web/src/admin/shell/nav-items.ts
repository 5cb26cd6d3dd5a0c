import type { LucideIcon } from "lucide-react";
import { Camera, ChartColumn, LayoutDashboard, Package, Settings, ShoppingCart, Store, Tag } from "lucide-react";

export interface NavItem {
  title: string;
  to: string;
  icon: LucideIcon;
}

/** The sidebar entries, in order (spec §2 Navigation, and Pricing from issue 24). */
export const NAV_ITEMS: readonly NavItem[] = [
  { title: "Dashboard", to: "/", icon: LayoutDashboard },
  { title: "Cameras", to: "/cameras", icon: Camera },
  { title: "Stores", to: "/stores", icon: Store },
  { title: "Products", to: "/products", icon: Package },
  { title: "Pricing", to: "/pricing", icon: Tag },
  { title: "Sessions", to: "/sessions", icon: ShoppingCart },
  { title: "Analytics", to: "/analytics", icon: ChartColumn },
  { title: "Settings", to: "/settings", icon: Settings },
];

/** The screen's name for the browser tab: the sidebar entry's title, "Sign in", or "Page Not Found". */
export function screenTitle(pathname: string): string {
  const path = pathname.replace(/(.)\/+$/, "$1");
  if (path === "/login") return "Sign in";
  // Reached from the account menu, not the sidebar's list (the spec fixes its entries).
  if (path === "/audit") return "Audit log";
  return NAV_ITEMS.find((item) => item.to === path)?.title ?? "Page Not Found";
}
