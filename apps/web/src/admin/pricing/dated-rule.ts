import type { AdminMe, CampaignStatus } from "@glide/contracts";

/**
 * What the Campaigns and Offers tabs share about a price rule kept by the
 * day: one store or every store (store_id null), a status on its own today,
 * and who may change it.
 */
export interface DatedRule {
  store_id: string | null;
  store_name: string | null;
}

export const RULE_STATUS: Record<CampaignStatus, { label: string; variant: "success" | "outline" | "muted" }> = {
  active: { label: "Active", variant: "success" },
  upcoming: { label: "Upcoming", variant: "outline" },
  ended: { label: "Ended", variant: "muted" },
};

export const storesOf = (rule: DatedRule) => rule.store_name ?? "All stores";

/** Whether the admin may change or delete a rule: platform admins every one, store admins their stores'. */
export function mayChange(admin: Pick<AdminMe, "role" | "store_ids">, rule: Pick<DatedRule, "store_id">): boolean {
  if (admin.role === "platform_admin") return true;
  return rule.store_id !== null && admin.store_ids.includes(rule.store_id);
}

/** Kronor as an admin types them: "19.90", "19,90" or "19". */
export const KRONOR_TEXT = /^\d+(?:[.,]\d{1,2})?$/;

/** Typed kronor as a number, a decimal comma read as a point. */
export const kronorOf = (text: string) => Number(text.trim().replace(",", "."));
