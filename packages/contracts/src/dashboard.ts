import { z } from "zod";

export const dashboardStatsSchema = z.object({
  total_stores: z.number().int(),
  active_stores: z.number().int(),
  inactive_stores: z.number().int(),
  total_products: z.number().int(),
  total_cameras: z.number().int(),
  /** Active cameras the health checker found offline at its last round. */
  cameras_offline: z.number().int(),
  /** Platform admins: every registered customer. Store admins: customers who have entered one of their stores. */
  total_users: z.number().int(),
  /** Monthly recurring revenue in kronor: enabled modules' monthly prices. */
  mrr: z.number(),
  total_transactions: z.number().int(),
  /** All-time revenue in kronor. */
  total_revenue: z.number(),
  /** Module name → number of stores that have it enabled. */
  active_modules: z.record(z.string(), z.number().int()),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
