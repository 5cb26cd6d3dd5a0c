import type { CampaignStatus } from "@glide/contracts";
import { Badge } from "../../ui/badge.tsx";
import { RULE_STATUS } from "./dated-rule.ts";

/** A campaign's or an offer's status on its own today. */
export function RuleStatusBadge({ status }: { status: CampaignStatus }) {
  return <Badge variant={RULE_STATUS[status].variant}>{RULE_STATUS[status].label}</Badge>;
}
