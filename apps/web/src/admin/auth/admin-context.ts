import type { AdminMe } from "@glide/contracts";
import { createContext, use } from "react";

export const AdminContext = createContext<AdminMe | null>(null);

/** The signed-in admin. Only used below the admin layout, which waits for it. */
export function useAdmin(): AdminMe {
  const admin = use(AdminContext);
  if (!admin) throw new Error("useAdmin must be used inside the admin layout");
  return admin;
}

export function useIsPlatformAdmin(): boolean {
  return useAdmin().role === "platform_admin";
}
