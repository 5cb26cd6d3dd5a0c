import clsx from "clsx";
import { CircleAlert, CircleCheck, CircleX } from "lucide-react";
import { Badge } from "../../ui/badge.tsx";
import { statusTone } from "./camera-groups.ts";
import { capital } from "./camera-options.ts";

const ICONS = {
  online: { Icon: CircleCheck, className: "text-success" },
  offline: { Icon: CircleX, className: "text-destructive" },
  unknown: { Icon: CircleAlert, className: "text-amber-600 dark:text-amber-400" },
} as const;

const BADGES = { online: "success", offline: "destructive", unknown: "secondary" } as const;

/** Green for online or active, red for offline or inactive, yellow otherwise; the badge says it in words. */
export function StatusIcon({ status, className }: { status: string; className?: string }) {
  const { Icon, className: color } = ICONS[statusTone(status)];
  return <Icon aria-hidden="true" className={clsx("size-4 shrink-0", color, className)} />;
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge variant={BADGES[statusTone(status)]}>{capital(status || "unknown")}</Badge>;
}
