import { sql } from "drizzle-orm";
import type { ExpiryJob } from "../../platform/housekeeping.ts";

/**
 * What the shopper sign-in leaves behind: BankID orders (BankID itself forgets
 * them within minutes) and refresh tokens past their expiry. A day's grace
 * keeps them for looking into a reported problem.
 */
export const shopperAuthExpiry: ExpiryJob[] = [
  { table: "bankid_orders", deleteExpired: sql`delete from bankid_orders where started_at < now() - interval '1 day'` },
  {
    table: "shopper_refresh_tokens",
    deleteExpired: sql`delete from shopper_refresh_tokens where expires_at < now() - interval '1 day'`,
  },
];
